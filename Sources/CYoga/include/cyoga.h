#ifndef CYOGA_H
#define CYOGA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// Yoga's C API (`ReactCommon/yoga/yoga/Yoga.h`), as much of it as bridged calls, reached through function pointers
/// that `cyoga_load` fills from a library the daemon built itself. Yoga's enums are C enums (ints) with the same
/// values in every React Native release that ships this API (0.71 and later): they are passed as `int32_t`.
#pragma clang assume_nonnull begin

typedef struct cyoga_node *cyoga_node_ref;
typedef struct cyoga_config *cyoga_config_ref;

/// `YGSize`.
typedef struct cyoga_size {
    float width;
    float height;
} cyoga_size;

/// `YGMeasureFunc`: width and height are NaN (YGUndefined) when their mode is `YGMeasureModeUndefined` (0).
typedef cyoga_size (*cyoga_measure_func)(cyoga_node_ref node, float width, int32_t width_mode, float height,
                                         int32_t height_mode);

/// The functions bridged calls, each `YG<Name>` of Yoga.h.
typedef struct cyoga_api {
    cyoga_config_ref (*ConfigNew)(void);
    void (*ConfigFree)(cyoga_config_ref);
    void (*ConfigSetPointScaleFactor)(cyoga_config_ref, float);
    void (*ConfigSetUseLegacyStretchBehaviour)(cyoga_config_ref, bool);
    void (*ConfigSetUseWebDefaults)(cyoga_config_ref, bool);

    cyoga_node_ref (*NodeNewWithConfig)(cyoga_config_ref);
    void (*NodeFree)(cyoga_node_ref);
    void (*NodeInsertChild)(cyoga_node_ref, cyoga_node_ref, uint32_t);
    void (*NodeRemoveChild)(cyoga_node_ref, cyoga_node_ref);
    uint32_t (*NodeGetChildCount)(cyoga_node_ref);
    cyoga_node_ref (*NodeGetChild)(cyoga_node_ref, uint32_t);
    cyoga_node_ref _Nullable (*NodeGetOwner)(cyoga_node_ref);
    void (*NodeCalculateLayout)(cyoga_node_ref, float, float, int32_t);
    void (*NodeMarkDirty)(cyoga_node_ref);
    void (*NodeSetContext)(cyoga_node_ref, void *_Nullable);
    void *_Nullable (*NodeGetContext)(cyoga_node_ref);
    void (*NodeSetMeasureFunc)(cyoga_node_ref, cyoga_measure_func);
    bool (*NodeGetHasNewLayout)(cyoga_node_ref);
    void (*NodeSetHasNewLayout)(cyoga_node_ref, bool);

    void (*NodeStyleSetDirection)(cyoga_node_ref, int32_t);
    void (*NodeStyleSetFlexDirection)(cyoga_node_ref, int32_t);
    void (*NodeStyleSetJustifyContent)(cyoga_node_ref, int32_t);
    void (*NodeStyleSetAlignContent)(cyoga_node_ref, int32_t);
    void (*NodeStyleSetAlignItems)(cyoga_node_ref, int32_t);
    void (*NodeStyleSetAlignSelf)(cyoga_node_ref, int32_t);
    void (*NodeStyleSetPositionType)(cyoga_node_ref, int32_t);
    void (*NodeStyleSetFlexWrap)(cyoga_node_ref, int32_t);
    void (*NodeStyleSetOverflow)(cyoga_node_ref, int32_t);
    void (*NodeStyleSetDisplay)(cyoga_node_ref, int32_t);
    void (*NodeStyleSetFlex)(cyoga_node_ref, float);
    void (*NodeStyleSetFlexGrow)(cyoga_node_ref, float);
    void (*NodeStyleSetFlexShrink)(cyoga_node_ref, float);
    void (*NodeStyleSetFlexBasis)(cyoga_node_ref, float);
    void (*NodeStyleSetFlexBasisPercent)(cyoga_node_ref, float);
    void (*NodeStyleSetFlexBasisAuto)(cyoga_node_ref);
    void (*NodeStyleSetPosition)(cyoga_node_ref, int32_t, float);
    void (*NodeStyleSetPositionPercent)(cyoga_node_ref, int32_t, float);
    void (*NodeStyleSetMargin)(cyoga_node_ref, int32_t, float);
    void (*NodeStyleSetMarginPercent)(cyoga_node_ref, int32_t, float);
    void (*NodeStyleSetMarginAuto)(cyoga_node_ref, int32_t);
    void (*NodeStyleSetPadding)(cyoga_node_ref, int32_t, float);
    void (*NodeStyleSetPaddingPercent)(cyoga_node_ref, int32_t, float);
    void (*NodeStyleSetBorder)(cyoga_node_ref, int32_t, float);
    void (*NodeStyleSetGap)(cyoga_node_ref, int32_t, float);
    void (*NodeStyleSetWidth)(cyoga_node_ref, float);
    void (*NodeStyleSetWidthPercent)(cyoga_node_ref, float);
    void (*NodeStyleSetWidthAuto)(cyoga_node_ref);
    void (*NodeStyleSetHeight)(cyoga_node_ref, float);
    void (*NodeStyleSetHeightPercent)(cyoga_node_ref, float);
    void (*NodeStyleSetHeightAuto)(cyoga_node_ref);
    void (*NodeStyleSetMinWidth)(cyoga_node_ref, float);
    void (*NodeStyleSetMinWidthPercent)(cyoga_node_ref, float);
    void (*NodeStyleSetMinHeight)(cyoga_node_ref, float);
    void (*NodeStyleSetMinHeightPercent)(cyoga_node_ref, float);
    void (*NodeStyleSetMaxWidth)(cyoga_node_ref, float);
    void (*NodeStyleSetMaxWidthPercent)(cyoga_node_ref, float);
    void (*NodeStyleSetMaxHeight)(cyoga_node_ref, float);
    void (*NodeStyleSetMaxHeightPercent)(cyoga_node_ref, float);
    void (*NodeStyleSetAspectRatio)(cyoga_node_ref, float);

    float (*NodeLayoutGetLeft)(cyoga_node_ref);
    float (*NodeLayoutGetTop)(cyoga_node_ref);
    float (*NodeLayoutGetWidth)(cyoga_node_ref);
    float (*NodeLayoutGetHeight)(cyoga_node_ref);
} cyoga_api;

/// Opens the library at `path` (RTLD_NOW | RTLD_LOCAL) and returns its functions, or NULL with the reason (dlerror's
/// text, or the first symbol missing) in `error` (always NUL-terminated). The library and the returned table stay
/// for the life of the process.
const cyoga_api *_Nullable cyoga_load(const char *path, char *error, size_t error_size);

#pragma clang assume_nonnull end

#endif
