/// Where a conversion is inside a value: the prop or parameter name, then `.field` and `[index]` steps.
///
/// Built as steps and turned into text only when a problem is reported, so a value without problems costs no
/// string work.
public struct PropPath: Sendable {
    @usableFromInline
    enum Step: Sendable {
        case field(String)
        case index(Int)
    }

    /// The prop or parameter name (empty for a bare value).
    @usableFromInline let root: String
    /// The steps below it; empty (and not allocated) while the conversion is at the top.
    @usableFromInline var steps: [Step] = []

    public init(_ root: String) { self.root = root }

    @inlinable mutating func push(_ step: Step) { steps.append(step) }
    @inlinable mutating func pop() { steps.removeLast() }

    /// `style.insets.top`, `points[2].x`.
    public var text: String {
        var text = root
        for step in steps {
            switch step {
            case .field(let name): text += text.isEmpty ? name : "." + name
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }
}
