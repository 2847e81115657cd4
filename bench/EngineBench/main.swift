// In-process engine throughput: frames through Connection.handle (the daemon's entry point) with no socket, the daemon's upper bound.
// Usage: swift run -c release EngineBench [updates] [views]
import BridgeCore
import Dispatch

let updates = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1])! : 1_000_000
let views = CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2])! : 1_000

func measure(_ label: String, count: Int, _ body: () -> Void) {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let rate = Double(count) / seconds
    print("\(label): \(count) in \((seconds * 1000).rounded() / 1000) s = \(Int(rate)) /s (\(Int(1e9 / rate)) ns each)")
}

let session = Engine().connect()
var out: [UInt8] = []
out.reserveCapacity(1 << 20)
@MainActor func send(_ line: String) {
    var line = line
    line.withUTF8 { _ = session.handle(line: UnsafeRawBufferPointer($0), into: &out) }
}
send(#"{"id":0,"op":"hello","protocol":1}"#)
var creates: [String] = []
for tag in 1...views { creates.append(#"{"op":"create","tag":\#(tag),"component":"SwiftUIButton"}"#) }
measure("create (batched 1000)", count: views) {
    for chunk in stride(from: 0, to: views, by: 1000) {
        send(#"{"op":"batch","ops":[\#(creates[chunk..<min(chunk + 1000, views)].joined(separator: ","))]}"#)
        out.removeAll(keepingCapacity: true)
    }
}
let lines: [[UInt8]] = (0..<10_000).map { i in
    Array(#"{"id":\#(i),"op":"update","tag":\#(i % views + 1),"props":{"count":\#(i)}}"#.utf8)
}
measure("update", count: updates) {
    for i in 0..<updates {
        lines[i % lines.count].withUnsafeBytes { _ = session.handle(line: $0, into: &out) }
        if out.count > 1 << 19 { out.removeAll(keepingCapacity: true) }
    }
}
send(#"{"op":"subscribe","tag":1,"event":"countChange"}"#)
let press = Array(#"{"id":1,"op":"command","tag":1,"name":"press"}"#.utf8)
measure("press with a listener", count: updates / 4) {
    for _ in 0..<(updates / 4) {
        press.withUnsafeBytes { _ = session.handle(line: $0, into: &out) }
        if out.count > 1 << 19 { out.removeAll(keepingCapacity: true) }
    }
}
