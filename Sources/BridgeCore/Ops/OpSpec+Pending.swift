// The spec of hello, whose file other work has open; it moves into Hello.swift once that work is in.
extension Ops.Hello {
    static let spec = OpSpec(
        fields:
            #"{"protocol":"integer","client?":"string","resume?":{"session":"string","token?":"string","ack?":"integer"}}"#,
        sample: #"{"op":"hello","protocol":1,"client":"sample"}"#,
        result:
            #"{"$name":"HelloResult","protocol":"integer","server":"string","session":"string","token":"string","limits":{"*":"integer"},"maxFrameBytes":"integer","components":{"$name":"Components","*":"object"},"propTypes?":"json","resumed?":"boolean","reason?":"string","seq?":"integer"}"#
    )
}
