// Node-API side of the database layer (io/): the JS `Database` class wraps a
// std::shared_ptr<const pd::Database>. Other layers' bindings take a Database handle through
// UnwrapDatabase().
#pragma once

#include <napi.h>

#include <memory>

#include "io/database.hpp"

namespace pd::napi {

// The database held by a JS `Database` object (created by Database.fromFile/fromString/withOverrides).
// Throws Napi::TypeError if v is not such an object.
std::shared_ptr<const pd::Database> UnwrapDatabase(const Napi::Value& v);

// Wraps a database into a new JS `Database` object (for bindings that create databases).
Napi::Object WrapDatabase(Napi::Env env, std::shared_ptr<const pd::Database> db);

void RegisterIo(Napi::Env env, Napi::Object exports);

}  // namespace pd::napi
