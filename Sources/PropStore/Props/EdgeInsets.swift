/// An `edgeInsets` prop (React Native's `EdgeInsetsPrimitive`, e.g. `hitSlop`): a missing edge is 0.
public struct EdgeInsets: Sendable, Hashable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    /// Its JSON object's fields, in order: conversion, output and render read them here.
    public static let fields = FieldTable<EdgeInsets>(
        .edgeInsets,
        EdgeInsets(),
        [
            .optional("top", \.top), .optional("left", \.left), .optional("bottom", \.bottom),
            .optional("right", \.right),
        ]
    )

    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }
}

extension EdgeInsets: PropConvertible {
    public static var propType: PropType { .edgeInsets }
    public var propValue: PropValue { .edgeInsets(self) }
    public init?(propValue: PropValue) { if case .edgeInsets(let v) = propValue { self = v } else { return nil } }
}
