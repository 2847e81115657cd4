import Testing

@testable import BridgeCore

/// hello's `resume` member, read once by the session: what it takes and what it refuses, with which message.
@Suite("ResumeRequest")
struct ResumeRequestTests {
    func read(_ text: String) throws(BridgeError) -> ResumeRequest {
        let document = try! JSONDocument(parsing: text)
        return try withExtendedLifetime(document) { () throws(BridgeError) -> ResumeRequest in
            try ResumeRequest(document.root)
        }
    }

    @Test(arguments: [
        (#"{"session":"s1-7","token":"abc","ack":3}"#, ResumeRequest(session: "s1-7", token: "abc", ack: 3)),
        (#"{"session":"s1-7","ack":0}"#, ResumeRequest(session: "s1-7", token: nil, ack: 0)),
        (#"{"session":"s1-7","token":null,"ack":0,"other":1}"#, ResumeRequest(session: "s1-7", token: nil, ack: 0)),
    ])
    func readsAResume(text: String, expected: ResumeRequest) throws {
        #expect(try read(text) == expected)
    }

    @Test(arguments: [
        "null", "[]", #""s1""#, "{}", #"{"ack":0}"#, #"{"session":1,"ack":0}"#, #"{"session":"s1"}"#,
        #"{"session":"s1","ack":-1}"#, #"{"session":"s1","ack":1.5}"#, #"{"session":"s1","ack":"2"}"#,
    ])
    func refusesAResumeOfAnotherShape(text: String) {
        #expect {
            try read(text)
        } throws: { error in
            let error = error as! BridgeError
            return error.code == .badRequest
                && error.message == "hello: 'resume' must be {session: string, ack: non-negative integer}"
        }
    }

    @Test func refusesATokenThatIsNotAString() {
        #expect {
            try read(#"{"session":"s1","token":7,"ack":0}"#)
        } throws: { error in
            let error = error as! BridgeError
            return error.code == .badRequest
                && error.message
                    == "hello: 'resume.token' must be a string (the token of the hello that opened the session), got 7"
        }
    }
}
