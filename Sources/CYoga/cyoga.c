#include "cyoga.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CYOGA_SYMBOL(name)                                                                                         \
    do {                                                                                                           \
        void *symbol = dlsym(handle, "YG" #name);                                                                  \
        if (symbol == NULL) {                                                                                      \
            snprintf(error, error_size, "the library has no YG" #name);                                          \
            dlclose(handle);                                                                                       \
            free(api);                                                                                             \
            return NULL;                                                                                           \
        }                                                                                                          \
        memcpy(&api->name, &symbol, sizeof(symbol));                                                               \
    } while (0)

const cyoga_api *cyoga_load(const char *path, char *error, size_t error_size) {
    if (error_size > 0) error[0] = 0;
    cyoga_api *api = calloc(1, sizeof(cyoga_api));
    if (api == NULL) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        snprintf(error, error_size, "%s", reason ? reason : "dlopen failed");
        free(api);
        return NULL;
    }
    CYOGA_SYMBOL(ConfigNew);
    CYOGA_SYMBOL(ConfigFree);
    CYOGA_SYMBOL(ConfigSetPointScaleFactor);
    CYOGA_SYMBOL(ConfigSetUseLegacyStretchBehaviour);
    CYOGA_SYMBOL(ConfigSetUseWebDefaults);
    CYOGA_SYMBOL(NodeNewWithConfig);
    CYOGA_SYMBOL(NodeFree);
    CYOGA_SYMBOL(NodeInsertChild);
    CYOGA_SYMBOL(NodeRemoveChild);
    CYOGA_SYMBOL(NodeGetChildCount);
    CYOGA_SYMBOL(NodeGetChild);
    CYOGA_SYMBOL(NodeGetOwner);
    CYOGA_SYMBOL(NodeCalculateLayout);
    CYOGA_SYMBOL(NodeMarkDirty);
    CYOGA_SYMBOL(NodeSetContext);
    CYOGA_SYMBOL(NodeGetContext);
    CYOGA_SYMBOL(NodeSetMeasureFunc);
    CYOGA_SYMBOL(NodeGetHasNewLayout);
    CYOGA_SYMBOL(NodeSetHasNewLayout);
    CYOGA_SYMBOL(NodeStyleSetDirection);
    CYOGA_SYMBOL(NodeStyleSetFlexDirection);
    CYOGA_SYMBOL(NodeStyleSetJustifyContent);
    CYOGA_SYMBOL(NodeStyleSetAlignContent);
    CYOGA_SYMBOL(NodeStyleSetAlignItems);
    CYOGA_SYMBOL(NodeStyleSetAlignSelf);
    CYOGA_SYMBOL(NodeStyleSetPositionType);
    CYOGA_SYMBOL(NodeStyleSetFlexWrap);
    CYOGA_SYMBOL(NodeStyleSetOverflow);
    CYOGA_SYMBOL(NodeStyleSetDisplay);
    CYOGA_SYMBOL(NodeStyleSetFlex);
    CYOGA_SYMBOL(NodeStyleSetFlexGrow);
    CYOGA_SYMBOL(NodeStyleSetFlexShrink);
    CYOGA_SYMBOL(NodeStyleSetFlexBasis);
    CYOGA_SYMBOL(NodeStyleSetFlexBasisPercent);
    CYOGA_SYMBOL(NodeStyleSetFlexBasisAuto);
    CYOGA_SYMBOL(NodeStyleSetPosition);
    CYOGA_SYMBOL(NodeStyleSetPositionPercent);
    CYOGA_SYMBOL(NodeStyleSetMargin);
    CYOGA_SYMBOL(NodeStyleSetMarginPercent);
    CYOGA_SYMBOL(NodeStyleSetMarginAuto);
    CYOGA_SYMBOL(NodeStyleSetPadding);
    CYOGA_SYMBOL(NodeStyleSetPaddingPercent);
    CYOGA_SYMBOL(NodeStyleSetBorder);
    CYOGA_SYMBOL(NodeStyleSetGap);
    CYOGA_SYMBOL(NodeStyleSetWidth);
    CYOGA_SYMBOL(NodeStyleSetWidthPercent);
    CYOGA_SYMBOL(NodeStyleSetWidthAuto);
    CYOGA_SYMBOL(NodeStyleSetHeight);
    CYOGA_SYMBOL(NodeStyleSetHeightPercent);
    CYOGA_SYMBOL(NodeStyleSetHeightAuto);
    CYOGA_SYMBOL(NodeStyleSetMinWidth);
    CYOGA_SYMBOL(NodeStyleSetMinWidthPercent);
    CYOGA_SYMBOL(NodeStyleSetMinHeight);
    CYOGA_SYMBOL(NodeStyleSetMinHeightPercent);
    CYOGA_SYMBOL(NodeStyleSetMaxWidth);
    CYOGA_SYMBOL(NodeStyleSetMaxWidthPercent);
    CYOGA_SYMBOL(NodeStyleSetMaxHeight);
    CYOGA_SYMBOL(NodeStyleSetMaxHeightPercent);
    CYOGA_SYMBOL(NodeStyleSetAspectRatio);
    CYOGA_SYMBOL(NodeLayoutGetLeft);
    CYOGA_SYMBOL(NodeLayoutGetTop);
    CYOGA_SYMBOL(NodeLayoutGetWidth);
    CYOGA_SYMBOL(NodeLayoutGetHeight);
    return api;
}
