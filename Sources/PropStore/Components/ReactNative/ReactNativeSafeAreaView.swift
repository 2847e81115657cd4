/// `RCTSafeAreaView`: React Native's `SafeAreaView` on iOS (`RCTSafeAreaViewNativeComponent.js`: View's props,
/// and `emulateUnlessSupported`, which older versions send).
public enum ReactNativeSafeAreaView: Component, ViewConfigTable {
    public static let name = "RCTSafeAreaView"
    public static let props: [Prop<NoOwnProps>] = Prop.passThrough(bool("emulateUnlessSupported"))
    public static func render(_ props: NoOwnProps) -> String { "SafeAreaView" }
}
