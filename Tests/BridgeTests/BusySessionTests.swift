import BridgeCore
import Dispatch
import Foundation
import Observation
import PropStore
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Observable
final class HolderProps: ViewProps {
    var n = 0
    init() {}
}

/// A component whose `hold` command keeps its request (and so its session's gate) busy until the test lets it go:
/// a request in progress, for as long as a test needs one.
enum Holder: Component {
    static let name = "Holder"
    static let props: [Prop<HolderProps>] = [.prop("n", \.n)]
    static let events: [EventSpec] = []
    static let commands: [Command<HolderProps>] = [
        Command("hold") { _ in
            BusySessionTests.entered.signal()
            BusySessionTests.released.wait()
        }
    ]
    static func render(_ props: HolderProps) -> String { "Holder" }
}

/// A session busy with a long request holds up only itself: other sessions' `hello`, `sessions` and a resume's
/// claim never wait for it; a stopping engine undoes its batch and saves it as it was before.
///
/// Each wait has the harness's generous safety timeout, after which the request is let go so that a broken engine
/// fails the test rather than hanging it; no test asserts on time.
@Suite("A busy session", .serialized)
struct BusySessionTests {
    static let entered = DispatchSemaphore(value: 0)
    static let released = DispatchSemaphore(value: 0)

    static func engine(clock: @escaping @Sendable () -> UInt64 = { 0 }) throws -> Engine {
        var registry = ComponentRegistry.builtin
        try registry.register(Holder.self)
        return Engine(registry: registry, clock: clock)
    }

    /// Runs `work` on a thread of its own; returns a semaphore signalled when it is done. A thread of its own, not
    /// Dispatch's global queue, whose threads other suites' blocking waits can all hold when suites run in parallel.
    static func inBackground(_ work: @escaping @Sendable () -> Void) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            work()
            done.signal()
        }
        thread.start()
        return done
    }

    /// Whether `done` is signalled while the held request is still held (it is let go after the safety timeout).
    static func finishesWhileHeld(_ done: DispatchSemaphore) -> Bool {
        done.wait(timeout: .now() + DaemonHarness.patience) == .success
    }

    /// A connection that said hello and has a Holder (tag 1) and a View (tag 2).
    static func greeted(_ engine: Engine) -> Connection {
        let connection = engine.connect()
        _ = connection.handle(line: #"{"id":0,"op":"hello","protocol":1}"#)
        _ = connection.handle(line: #"{"op":"create","tag":1,"component":"Holder"}"#)
        _ = connection.handle(line: #"{"op":"create","tag":2,"component":"View"}"#)
        return connection
    }

    @Test func othersSessionsAndHelloDoNotWaitForIt() throws {
        let claiming = Atomic<Bool>(false)
        let claimStarted = DispatchSemaphore(value: 0)
        // A resume's claim reads the clock first (to expire sessions): the test learns it has begun.
        let engine = try Self.engine(clock: {
            if claiming.exchange(false, ordering: .relaxed) { claimStarted.signal() }
            return 0
        })
        let busy = Self.greeted(engine)
        let session = busy.session
        let held = Self.inBackground { _ = busy.handle(line: #"{"op":"command","tag":1,"name":"hold"}"#) }
        Self.entered.wait()

        // Another connection resumes the busy session: it waits for the request, holding nothing others need.
        claiming.store(true, ordering: .relaxed)
        let resumer = engine.connect()
        let resumed = Self.inBackground { [resumer] in _ = resumer.handle(line: resumeLine(session, ack: 0)) }
        claimStarted.wait()
        usleep(100_000)  // Not needed for the test to pass: lets a claim that would hold the table get there.

        let other = Mutex<Connection?>(nil)
        let greeted = Self.inBackground {
            let connection = engine.connect()
            let hello = connection.handle(line: #"{"id":1,"op":"hello","protocol":1}"#)
            #expect(field(hello[0], "ok") == "true")
            other.withLock { $0 = connection }
        }
        let helloAnswered = Self.finishesWhileHeld(greeted)
        #expect(helloAnswered, "a new connection's hello is answered while the other session is busy")
        let listed = Self.inBackground {
            guard let connection = other.withLock({ $0 }) else { return }
            let sessions = connection.handle(line: #"{"id":2,"op":"sessions"}"#)
            #expect(field(sessions[0], "result.sessions.0.views") == "2", "\(sessions)")
            connection.close()
        }
        #expect(Self.finishesWhileHeld(listed), "sessions is answered while the other session is busy")
        Self.released.signal()
        #expect(Self.finishesWhileHeld(held))
        #expect(Self.finishesWhileHeld(resumed))
        if !helloAnswered { _ = Self.finishesWhileHeld(greeted) }  // it waited for the held request
        #expect(resumer.session === session, "the resume took the session once its request was done")
        #expect(busy.isTakenOver)
        busy.close()
        resumer.close()
        engine.closeAllSessions()
    }

    @Test func aBatchTheEngineStopsIsUndoneAndNotAnswered() throws {
        let engine = try Self.engine()
        let busy = Self.greeted(engine)
        let frames = Mutex<[String]>([])
        let held = Self.inBackground {
            let answer = busy.handle(
                line: #"{"op":"batch","ops":[{"op":"create","tag":3,"component":"View"},"#
                    + #"{"op":"command","tag":1,"name":"hold"},{"op":"create","tag":4,"component":"View"}]}"#
            )
            frames.withLock { $0 = answer }
        }
        Self.entered.wait()
        engine.interruptRequests()
        Self.released.signal()
        let saved = String(decoding: engine.saveState(), as: UTF8.self)
        #expect(Self.finishesWhileHeld(held))
        #expect(frames.withLock { $0 }.isEmpty, "not answered")
        #expect(saved.contains(#""tag":2,"#) && !saved.contains(#""tag":3,"#), "saved as it was before the batch")
        #expect(busy.handle(line: #"{"op":"ping"}"#).isEmpty, "no line is handled after")
        busy.close()
        engine.closeAllSessions()
    }

    /// A session whose single request goes on (it is not a batch, so it does not stop) is waited for only as long
    /// as the saver allows, then left out: every other session is saved.
    @Test func aSessionStillBusyIsLeftOutAndTheOthersSaved() throws {
        let engine = try Self.engine()
        let busy = Self.greeted(engine)
        let idle = Self.greeted(engine)
        let held = Self.inBackground { _ = busy.handle(line: #"{"op":"command","tag":1,"name":"hold"}"#) }
        Self.entered.wait()
        engine.interruptRequests()
        var tries = 0
        var leftOut: [String] = []
        let saved = engine.saveState(
            keepWaiting: {
                tries += 1
                return tries < 3
            },
            leftOut: &leftOut
        )
        Self.released.signal()
        #expect(Self.finishesWhileHeld(held))
        #expect(leftOut == [busy.session.id])
        let text = String(decoding: saved, as: UTF8.self)
        #expect(text.contains(#""id":"\#(idle.session.id)""#) && !text.contains(#""id":"\#(busy.session.id)""#))
        let reloaded = Engine(registry: engine.registry)
        #expect(try reloaded.loadState(saved) == 1, "what is saved loads")
        reloaded.closeAllSessions()
        busy.close()
        idle.close()
        engine.closeAllSessions()
    }
}
