/// A `point` prop (React Native's `PointPrimitive`): `{x, y}`, both required.
public struct Point: Sendable, Hashable {
    public var x: Double
    public var y: Double

    /// Its JSON object's fields, in order: conversion, output and render read them here.
    public static let fields = FieldTable<Point>(.point, Point(), [.required("x", \.x), .required("y", \.y)])

    public init(x: Double = 0, y: Double = 0) {
        self.x = x
        self.y = y
    }
}

extension Point: PropConvertible {
    public static var propType: PropType { .point }
    public var propValue: PropValue { .point(self) }
    public init?(propValue: PropValue) { if case .point(let v) = propValue { self = v } else { return nil } }
}
