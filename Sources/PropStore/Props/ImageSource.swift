/// An `imageSource` prop (React Native's `ImageSourcePrimitive`): `{uri, width?, height?, scale?}`, or a
/// string taken as `{uri}`. React Native's other source fields (`headers`, `method`, `body`, `cache`,
/// `bundle`) are kept as given.
public struct ImageSource: Sendable, Equatable {
    public var uri: String
    public var width: Double?
    public var height: Double?
    public var scale: Double?
    /// `headers`, `method`, `body`, `cache`, `bundle`, as given, in the order given.
    public var extra: [JSONMember]

    public init(
        uri: String,
        width: Double? = nil,
        height: Double? = nil,
        scale: Double? = nil,
        extra: [JSONMember] = []
    ) {
        self.uri = uri
        self.width = width
        self.height = height
        self.scale = scale
        self.extra = extra
    }

    /// Its JSON object's fields, in order: conversion, output and render read them here. A missing `uri` is
    /// reported only for a source that is otherwise right.
    public static let fields = FieldTable<ImageSource>(
        .imageSource,
        ImageSource(uri: ""),
        [
            .required("uri", \.uri), .optional("width", \.width), .optional("height", \.height),
            .optional("scale", \.scale),
        ],
        passThrough: ["headers", "method", "body", "cache", "bundle"],
        extra: \ImageSource.extra,
        shorthand: "uri",
        reportsMissingWithOtherProblems: false
    )
}

extension ImageSource: PropConvertible {
    public static var propType: PropType { .imageSource }
    public var propValue: PropValue { .imageSource(self) }
    public init?(propValue: PropValue) { if case .imageSource(let v) = propValue { self = v } else { return nil } }
}
