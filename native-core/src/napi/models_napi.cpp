// Node-API functions of this layer (filled in by the layer's owner).
#include <napi.h>

namespace pd::napi {
void RegisterModels(Napi::Env env, Napi::Object exports) {}
}  // namespace pd::napi
