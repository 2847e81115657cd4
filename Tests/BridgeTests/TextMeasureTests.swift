import Foundation
import Testing

@testable import BridgeCore

/// Text measured by Pango with Debian's Inter (`fonts-inter`), as `RCTTextShadowView` measures with
/// `NSLayoutManager`: each expectation is what Inter's metrics give (a device's San Francisco is within a few
/// percent), within 0.5 pt.
@Suite("Text measured with Pango")
struct TextMeasureTests {
    private func size(
        _ spans: [(String, TextStyle)],
        width: Double? = nil,
        _ configure: (inout TextContent) -> Void = { _ in }
    )
        -> TextLayout.Size
    {
        var content = TextContent(spans: spans.map { TextSpan(text: $0.0, style: $0.1) })
        configure(&content)
        return TextLayout.size(content, width: width)
    }

    private func close(_ size: TextLayout.Size, _ width: Double, _ height: Double) -> Bool {
        abs(size.width - width) <= 0.5 && abs(size.height - height) <= 0.5
    }

    @Test func aLineOfInterHasItsWidthAndItsLineHeight() {
        let hello = size([("Hello", TextStyle(fontSize: 17))])
        #expect(close(hello, 40.7, 20.6), "\(hello)")
        // React Native's default fontSize is 14.
        let small = size([("Hello", TextStyle())])
        #expect(close(small, 33.5, 16.9), "\(small)")
        // "System" is the default family; a family fontconfig does not have falls back to it.
        #expect(size([("Hello", TextStyle(fontSize: 17, fontFamily: "System"))]) == hello)
        #expect(size([("Hello", TextStyle(fontSize: 17, fontFamily: "No Such Font"))]) == hello)
        #expect(size([]) == TextLayout.Size(width: 0, height: 0))
    }

    @Test func weightStyleFamilyAndSpacingChangeTheWidth() {
        let regular = size([("Hello", TextStyle(fontSize: 17))])
        let bold = size([("Hello", TextStyle(fontSize: 17, fontWeight: 700))])
        #expect(close(bold, 42.5, 20.6), "\(bold)")
        #expect(bold.width > regular.width + 1)
        let mono = size([("Hello", TextStyle(fontSize: 17, fontFamily: "DejaVu Sans Mono"))])
        #expect(close(mono, 51.2, 19.8), "\(mono)")
        // 2 points between each of the five letters.
        let spaced = size([("Hello", TextStyle(fontSize: 17, letterSpacing: 2))])
        #expect(close(spaced, 48.7, 20.6), "\(spaced)")
        let tall = size([("Hello", TextStyle(fontSize: 17, lineHeight: 30))])
        #expect(close(tall, 40.7, 30), "\(tall)")
    }

    @Test func aNestedSpanHasItsOwnAttributesOverItsParents() {
        let plain = size([("Hello", TextStyle(fontSize: 17))])
        let mixed = size([("He", TextStyle(fontSize: 17)), ("llo", TextStyle(fontSize: 17, fontWeight: 700))])
        let bold = size([("Hello", TextStyle(fontSize: 17, fontWeight: 700))])
        #expect(mixed.width > plain.width + 0.5 && mixed.width < bold.width - 0.2, "\(plain) \(mixed) \(bold)")
        let big = size([("Hello ", TextStyle(fontSize: 17)), ("world", TextStyle(fontSize: 34))])
        #expect(close(big, 131.5, 41.1) || big.height > 40, "\(big)")
    }

    @Test func linesWrapAtWordsAndNumberOfLinesCutsThemWithAnEllipsis() {
        let text = String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 4)
        let wrapped = size([(text, TextStyle(fontSize: 17))], width: 200)
        #expect(abs(wrapped.height - 8 * 20.57) <= 0.5, "eight lines: \(wrapped)")
        let two = size([(text, TextStyle(fontSize: 17))], width: 200) { $0.numberOfLines = 2 }
        #expect(close(two, 200, 41.1), "\(two)")
        let one = size([(text, TextStyle(fontSize: 17))], width: 100) { $0.numberOfLines = 1 }
        #expect(one.width <= 100 && abs(one.height - 20.57) <= 0.5, "\(one)")
    }

    @Test func theMeasureCeilsToThePixelGridAsRCTTextShadowViewDoes() {
        var metrics = TextMeasure.Metrics()
        metrics.content = TextContent(spans: [TextSpan(text: "Hello", style: TextStyle(fontSize: 17))])
        metrics.scale = 3
        // 40.69 × 20.57 → 41 × 20.67 (123 and 62 pixels), plus React Native's epsilon.
        let free = TextMeasure.size(metrics, width: .nan, widthMode: 0, height: .nan, heightMode: 0)
        #expect(abs(Double(free.width) - 41.001) < 0.0001 && abs(Double(free.height) - (62.0 / 3 + 0.001)) < 0.0001)
        // A word longer than the width offered breaks inside: two lines, none wider than offered.
        let narrow = TextMeasure.size(metrics, width: 30, widthMode: 2, height: .nan, heightMode: 0)
        #expect(narrow.width <= 30.001 && narrow.height > 40, "\(narrow)")
        // At most the height offered.
        let short = TextMeasure.size(metrics, width: 30, widthMode: 2, height: 10, heightMode: 2)
        #expect(abs(Double(short.height) - 10.001) < 0.0001, "\(short)")
    }
}
