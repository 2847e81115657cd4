// In-process engine throughput: frames through Connection.handle (the daemon's entry point) with no socket, the daemon's upper bound.
// Usage: swift run -c release EngineBench [updates] [views]
import BridgeCore
import Dispatch
import Foundation

let updates = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1])! : 1_000_000
let views = CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2])! : 1_000
/// A third argument names the only workload to measure (`update`, `batch`, `press`, `nested`), e.g. for a profile.
let only = CommandLine.arguments.count > 3 ? CommandLine.arguments[3] : nil

func measure(_ label: String, count: Int, _ body: () -> Void) {
    if let only, !label.hasPrefix(only), !label.hasPrefix("create") { return }
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
// (4)'s frames: batches of 100 updates, every count new (the undo log of a batch at work).
let batches: [[UInt8]] = (0..<1_000).map { b in
    let ops = (0..<100).map { j in
        let i = b * 100 + j
        return #"{"op":"update","tag":\#(i % views + 1),"props":{"count":\#(i + 1_000_000)}}"#
    }
    return Array(#"{"id":\#(b),"op":"batch","ops":[\#(ops.joined(separator: ","))]}"#.utf8)
}
measure("batch of 100 updates", count: updates / 100) {
    for i in 0..<(updates / 100) {
        batches[i % batches.count].withUnsafeBytes { _ = session.handle(line: $0, into: &out) }
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

// (7)'s frames in process: the Chart of bench/chart.schema.json (a codegen schema component), every value new.
var schema = CodegenSchema()
let schemaPath = #filePath.split(separator: "/").dropLast(2).joined(separator: "/") + "/chart.schema.json"
let schemaBytes = Array(try! String(contentsOfFile: "/" + schemaPath, encoding: .utf8).utf8)
try! schema.load(schemaBytes, file: schemaPath)
let chartSession = Engine(registry: schema.registry).connect()
@MainActor func sendChart(_ line: String) {
    var line = line
    line.withUTF8 { _ = chartSession.handle(line: UnsafeRawBufferPointer($0), into: &out) }
}
sendChart(#"{"id":0,"op":"hello","protocol":1}"#)
for tag in 1...views { sendChart(#"{"op":"create","tag":\#(tag),"component":"Chart"}"#) }
out.removeAll(keepingCapacity: true)
let nested: [[UInt8]] = (0..<10_000).map { i in
    let points = (0..<10).map { #"{"x":\#($0),"y":\#(i).5}"# }.joined(separator: ",")
    return Array(
        (#"{"id":\#(i),"op":"update","tag":\#(i % views + 1),"props":{"points":[\#(points)],"#
            + ##""style":{"color":"#3366CC","insets":{"top":\##(i),"left":2},"label":"cpu"},"lineWidth":\##(i).25}}"##)
            .utf8
    )
}
measure("nested props update (schema Chart)", count: updates / 4) {
    for i in 0..<(updates / 4) {
        nested[i % nested.count].withUnsafeBytes { _ = chartSession.handle(line: $0, into: &out) }
        if out.count > 1 << 19 { out.removeAll(keepingCapacity: true) }
    }
}
