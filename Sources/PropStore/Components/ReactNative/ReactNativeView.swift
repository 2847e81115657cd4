/// `RCTView`: React Native's `View`, as its native side takes it. Its props are those of React Native's
/// view config (`BaseViewConfig`) and the style attributes its renderer flattens into top-level props
/// (`ReactNativeStyleAttributes`), each typed as React Native's native side reads it.
///
/// Every other component is a View too, as every React Native view manager inherits `RCTViewManager`: a
/// component accepts these props without declaring them (``ComponentType/inheritedProps``); one of its own
/// props of the same name wins.
public enum ReactNativeView: ViewConfigTable {
    public static let name = "RCTView"

    /// Every prop of React Native's view, in the order of its view config, then its style attributes.
    public static let props: [PropField] = viewProps + styleProps

    static let descriptors = SparseProps.descriptors(props, inherited: false)
    /// The same props, for components that inherit them (stored beside the component's own props object).
    static let inheritedDescriptors = SparseProps.descriptors(props, inherited: true)

    /// The component, rendered as `View` or `View #testID`.
    public static let type: ComponentType = {
        let testID = props.firstIndex { $0.name == "testID" }!
        return ComponentType(
            name: name,
            props: descriptors,
            events: [],
            commands: [],
            inheritsViewProps: false,
            makeProps: { SparseProps() },
            render: { object in
                let props = unsafeDowncast(object, to: SparseProps.self)
                if case .string(let id)? = props.values[testID], !id.isEmpty { return "View #\(id)" }
                return "View"
            }
        )
    }()

    // MARK: - The table

    /// `{width, height}` (`shadowOffset`, `textShadowOffset`).
    private static let size = PropType.object([
        PropField("width", .double, optional: true, default: .double(0)),
        PropField("height", .double, optional: true, default: .double(0)),
    ])
    private static let flexAlign = ["flex-start", "flex-end", "center", "stretch", "baseline"]

    /// `BaseViewConfig.ios.js`'s `validAttributesForNonEventProps`, less what the style attributes type.
    static let viewProps: [PropField] =
        bool("accessible")
        + [field("accessibilityActions", .mixed)]
        + string("accessibilityLabel", "accessibilityHint", "accessibilityLanguage")
        + [field("accessibilityValue", .mixed)]
        + bool(
            "accessibilityViewIsModal",
            "accessibilityElementsHidden",
            "accessibilityIgnoresInvertColors",
            "needsOffscreenAlphaCompositing",
            "shouldRasterizeIOS",
            "removeClippedSubviews",
            "collapsable"
        )
        + string("testID", "nativeID", "accessibilityRole", "role")
        + [
            field("accessibilityState", .mixed),
            // A number (the same on every edge) or insets: React Native takes both.
            field("hitSlop", .mixed),
            oneOf("importantForAccessibility", ["auto", "yes", "no", "no-hide-descendants"]),
            oneOf("accessibilityLiveRegion", ["none", "polite", "assertive"]),
        ]

    /// `ReactNativeStyleAttributes`: layout, shadows, transforms, visual and text style, flattened.
    static let styleProps: [PropField] =
        [
            oneOf(
                "alignContent",
                ["flex-start", "flex-end", "center", "stretch", "space-between", "space-around", "space-evenly"]
            ),
            oneOf("alignItems", flexAlign),
            oneOf("alignSelf", ["auto"] + flexAlign),
            field("aspectRatio", .double),
        ]
        + number(
            "borderBottomWidth",
            "borderEndWidth",
            "borderLeftWidth",
            "borderRightWidth",
            "borderStartWidth",
            "borderTopWidth",
            "borderWidth"
        )
        + dimension("columnGap", "bottom")
        + [oneOf("direction", ["inherit", "ltr", "rtl"]), oneOf("display", ["none", "flex"])]
        + dimension("end")
        + number("flex")
        + dimension("flexBasis")
        + [oneOf("flexDirection", ["row", "row-reverse", "column", "column-reverse"])]
        + number("flexGrow", "flexShrink")
        + [oneOf("flexWrap", ["wrap", "nowrap", "wrap-reverse"])]
        + dimension("gap", "height")
        + [
            oneOf(
                "justifyContent",
                ["flex-start", "flex-end", "center", "space-between", "space-around", "space-evenly"]
            )
        ]
        + dimension(
            "left",
            "margin",
            "marginBlock",
            "marginBlockEnd",
            "marginBlockStart",
            "marginBottom",
            "marginEnd",
            "marginHorizontal",
            "marginInline",
            "marginInlineEnd",
            "marginInlineStart",
            "marginLeft",
            "marginRight",
            "marginStart",
            "marginTop",
            "marginVertical",
            "maxHeight",
            "maxWidth",
            "minHeight",
            "minWidth"
        )
        + [oneOf("overflow", ["visible", "hidden", "scroll"])]
        + dimension(
            "padding",
            "paddingBlock",
            "paddingBlockEnd",
            "paddingBlockStart",
            "paddingBottom",
            "paddingEnd",
            "paddingHorizontal",
            "paddingInline",
            "paddingInlineEnd",
            "paddingInlineStart",
            "paddingLeft",
            "paddingRight",
            "paddingStart",
            "paddingTop",
            "paddingVertical"
        )
        + [oneOf("position", ["absolute", "relative", "static"])]
        + dimension("right", "rowGap", "start", "top", "width")
        + number("zIndex", "elevation")
        // Shadows.
        + color("shadowColor")
        + [field("shadowOffset", size)]
        + number("shadowOpacity", "shadowRadius")
        // Transforms: React Native's list of one-key objects (`[{rotate: '45deg'}, {scale: 2}]`) or a matrix.
        + [field("transform", .mixed)]
        // Visual.
        + [oneOf("backfaceVisibility", ["visible", "hidden"])]
        + color(
            "backgroundColor",
            "borderBlockColor",
            "borderBlockEndColor",
            "borderBlockStartColor",
            "borderBottomColor"
        )
        + number(
            "borderBottomEndRadius",
            "borderBottomLeftRadius",
            "borderBottomRightRadius",
            "borderBottomStartRadius"
        )
        + color("borderColor")
        + [oneOf("borderCurve", ["circular", "continuous"])]
        + color("borderEndColor")
        + number("borderEndEndRadius", "borderEndStartRadius")
        + color("borderLeftColor")
        + number("borderRadius")
        + color("borderRightColor", "borderStartColor")
        + number("borderStartEndRadius", "borderStartStartRadius")
        + [oneOf("borderStyle", ["solid", "dotted", "dashed"])]
        + color("borderTopColor")
        + number("borderTopEndRadius", "borderTopLeftRadius", "borderTopRightRadius", "borderTopStartRadius")
        + [field("opacity", .double, .double(1))]
        + [oneOf("pointerEvents", ["auto", "none", "box-none", "box-only"], "auto")]
        // Text.
        + color("color")
        + string("fontFamily")
        + number("fontSize")
        + [oneOf("fontStyle", ["normal", "italic"])]
        + [field("fontVariant", .array(.string))]
        // A string ("bold", "600") or, as React Native also takes, a number.
        + [field("fontWeight", .mixed)]
        + bool("includeFontPadding")
        + number("letterSpacing", "lineHeight")
        + [
            oneOf("textAlign", ["auto", "left", "right", "center", "justify"]),
            oneOf("textAlignVertical", ["auto", "top", "bottom", "center"]),
        ]
        + color("textDecorationColor")
        + [
            oneOf("textDecorationLine", ["none", "underline", "line-through", "underline line-through"]),
            oneOf("textDecorationStyle", ["solid", "double", "dotted", "dashed"]),
        ]
        + color("textShadowColor")
        + [field("textShadowOffset", size)]
        + number("textShadowRadius")
        + [
            oneOf("textTransform", ["none", "capitalize", "uppercase", "lowercase"]),
            oneOf("userSelect", ["auto", "text", "none", "contain", "all"]),
            oneOf("verticalAlign", ["auto", "top", "bottom", "middle"]),
            oneOf("writingDirection", ["auto", "ltr", "rtl"]),
        ]
        // Images.
        + color("overlayColor")
        + [oneOf("resizeMode", ["cover", "contain", "stretch", "repeat", "center"])]
        + color("tintColor")
        + [oneOf("objectFit", ["cover", "contain", "fill", "scale-down"])]
}
