import Observation

/// Props of `View`, a plain container.
@Observable
public final class ContainerProps: ViewProps {
    public var testID = ""
    public init() {}
}

/// `View`: a plain container that other views are arranged in and that can listen for bubbling events.
public enum ViewComponent: Component {
    public static let name = "View"
    public static let props: [Prop<ContainerProps>] = [.string("testID", \.testID)]

    public static func render(_ props: ContainerProps) -> String {
        props.testID.isEmpty ? "View" : "View #\(props.testID)"
    }
}
