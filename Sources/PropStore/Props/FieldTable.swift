/// The fields of a small struct prop type (`point`, `edgeInsets`, `imageSource`), listed once: conversion
/// (``Converter``), the type's `expected` text, its JSON output (`JSONWriter`) and its render all read this table.
///
/// ```swift
/// static let fields = FieldTable<Point>(.point, Point(), [.required("x", \.x), .required("y", \.y)])
/// ```
/// A JSON object of the type has the table's fields, in its order: an unknown field, a field of another kind and
/// a missing required one are problems that name the field's path. A missing optional field keeps its value in
/// `empty` (0, or `nil`: then it is not written either).
public final class FieldTable<Value: Sendable>: Sendable {
    /// The prop type the table describes; its name starts the messages.
    public let type: PropType
    /// The value a conversion starts from: what a missing optional field is.
    public let empty: Value
    public let fields: [Field]
    /// The fields' names, in order: what conversion looks a JSON member's name up in.
    @usableFromInline let names: [String]
    /// Names of further fields kept as given (any JSON), in the order given, in ``extra``.
    public let passThrough: [String]
    /// Where the pass-through fields are kept.
    @usableFromInline let extra: (WritableKeyPath<Value, [JSONMember]> & Sendable)?
    /// The index in ``fields`` of the string field that a bare JSON string stands for (an image source's `uri`).
    @usableFromInline let shorthand: Int?
    /// Whether a missing required field is reported also when other fields have problems; when not, it is
    /// reported only for an object that is otherwise right.
    @usableFromInline let reportsMissingWithOtherProblems: Bool

    public init(
        _ type: PropType,
        _ empty: Value,
        _ fields: [Field],
        passThrough: [String] = [],
        extra: (WritableKeyPath<Value, [JSONMember]> & Sendable)? = nil,
        shorthand: String? = nil,
        reportsMissingWithOtherProblems: Bool = true
    ) {
        precondition(fields.count <= 64, "a field table has at most 64 fields")
        self.type = type
        self.empty = empty
        self.fields = fields
        self.names = fields.map(\.name)
        self.passThrough = passThrough
        self.extra = extra
        self.shorthand = fields.firstIndex { $0.name == shorthand && $0.kind == .string }
        precondition((shorthand == nil) == (self.shorthand == nil), "the shorthand names a string field")
        self.reportsMissingWithOtherProblems = reportsMissingWithOtherProblems
    }

    /// One field: its name, its kind, whether it must be present, and how the struct keeps it.
    public struct Field: Sendable {
        public enum Kind: Sendable {
            case number
            case string

            /// As messages say it: `number`, `string`.
            public var name: String {
                switch self {
                case .number: "number"
                case .string: "string"
                }
            }
        }

        public let name: String
        public let kind: Kind
        public let isRequired: Bool
        /// Reads the field (given `nil`: its value, `nil` when absent) or writes it (given a value of its kind).
        ///
        /// One closure that captures the key path: the constructors below are inlined where the table is
        /// declared, the key path is a literal there, and the optimizer turns it into the property's direct
        /// access, as it does for ``Prop``; through the key path at run time, every field of every value would go
        /// through the key path runtime.
        @usableFromInline let access: @Sendable (inout Value, FieldValue?) -> FieldValue?

        @usableFromInline
        init(
            name: String,
            kind: Kind,
            isRequired: Bool,
            access: @escaping @Sendable (inout Value, FieldValue?) -> FieldValue?
        ) {
            self.name = name
            self.kind = kind
            self.isRequired = isRequired
            self.access = access
        }

        /// A number field that must be present.
        @inlinable @inline(__always)
        public static func required(_ name: String, _ keyPath: WritableKeyPath<Value, Double> & Sendable) -> Self {
            number(name, keyPath, isRequired: true)
        }

        /// A number field that may be absent: it then keeps its value in the table's `empty`.
        @inlinable @inline(__always)
        public static func optional(_ name: String, _ keyPath: WritableKeyPath<Value, Double> & Sendable) -> Self {
            number(name, keyPath, isRequired: false)
        }

        @inlinable @inline(__always)
        static func number(
            _ name: String,
            _ keyPath: WritableKeyPath<Value, Double> & Sendable,
            isRequired: Bool
        ) -> Self {
            Self(name: name, kind: .number, isRequired: isRequired) { value, new in
                guard let new else { return .number(value[keyPath: keyPath]) }
                if case .number(let number) = new { value[keyPath: keyPath] = number }
                return nil
            }
        }

        /// A number field that may be absent: it is then `nil`, and is not written.
        @inlinable @inline(__always)
        public static func optional(_ name: String, _ keyPath: WritableKeyPath<Value, Double?> & Sendable) -> Self {
            Self(name: name, kind: .number, isRequired: false) { value, new in
                guard let new else { return value[keyPath: keyPath].map(FieldValue.number) }
                if case .number(let number) = new { value[keyPath: keyPath] = number }
                return nil
            }
        }

        /// A string field that must be present.
        @inlinable @inline(__always)
        public static func required(_ name: String, _ keyPath: WritableKeyPath<Value, String> & Sendable) -> Self {
            Self(name: name, kind: .string, isRequired: true) { value, new in
                guard let new else { return .string(value[keyPath: keyPath]) }
                if case .string(let string) = new { value[keyPath: keyPath] = string }
                return nil
            }
        }

        /// The field's value in `value`, `nil` when it is absent.
        @inlinable public func value(in value: Value) -> FieldValue? {
            var value = value
            return access(&value, nil)
        }

        /// Sets the field in `value` to `new`, a value of its kind.
        @inlinable func set(_ new: FieldValue, in value: inout Value) { _ = access(&value, new) }
    }

    /// A field's value, as ``Field/value(in:)`` reads it.
    public enum FieldValue: Sendable, Equatable {
        case number(Double)
        case string(String)
    }

    /// The index of the field named `name` in ``fields``.
    @inlinable func index(of name: String) -> Int? { names.firstIndex(of: name) }

    /// Every field an object may have, as the unknown-field message lists them: `x, y`.
    var fieldList: String { (names + passThrough).joined(separator: ", ") }

    /// The message for a field the type does not have.
    @usableFromInline func unknownFieldMessage(_ name: String) -> String {
        "\(type.name) has no field '\(name)'; its fields are \(fieldList)"
    }

    /// What an error says the type accepts: `point {x: number, y: number}`,
    /// `edgeInsets {top?, left?, bottom?, right?: number}`,
    /// `imageSource ({uri: string, width?, height?, scale?} or a uri string)`.
    ///
    /// Required fields show their kind; optional ones a `?`, and when every field is optional and of one kind,
    /// that kind once at the end.
    var expected: String {
        var parts = fields.map { $0.isRequired ? "\($0.name): \($0.kind.name)" : $0.name + "?" }
        if let kind = fields.first?.kind, fields.allSatisfy({ !$0.isRequired && $0.kind == kind }) {
            parts[parts.count - 1] += ": " + kind.name
        }
        let object = "{" + parts.joined(separator: ", ") + "}"
        guard let shorthand else { return type.name + " " + object }
        return "\(type.name) (\(object) or a \(fields[shorthand].name) string)"
    }

    /// The pass-through fields of `value`, in the order given.
    public func extraMembers(of value: Value) -> [JSONMember] { extra.map { value[keyPath: $0] } ?? [] }

    /// A render's short text of `value`: `<uri>` for a type a string stands for, else its fields in order,
    /// `(1, 2)`.
    public func renderText(_ value: Value) -> String {
        if let shorthand, case .string(let text) = fields[shorthand].value(in: value) { return "<" + text + ">" }
        let texts = fields.compactMap { field -> String? in
            switch field.value(in: value) {
            case .number(let number): numberText(number)
            case .string(let string): string
            case nil: nil
            }
        }
        return "(" + texts.joined(separator: ", ") + ")"
    }
}
