/// Why a React Native codegen schema (or a component description) cannot be loaded: the file, where in its
/// JSON, and what is wrong there.
///
/// Printed as `FILE: PATH: problem`, e.g.
/// `my.json: modules.MyModule.components.MyView.props[3].typeAnnotation: unknown type annotation 'FooTypeAnnotation'`.
public struct SchemaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file, as it was named on the command line (or what the description came from).
    public var file: String
    /// The JSON path of the offending value (`modules.M.components.C.props[3].typeAnnotation`); empty for the
    /// whole file.
    public var path: String
    public var problem: String

    public init(file: String, path: String, problem: String) {
        self.file = file
        self.path = path
        self.problem = problem
    }

    public var description: String { path.isEmpty ? "\(file): \(problem)" : "\(file): \(path): \(problem)" }
}
