// Node-API binding of the database layer: the JS class `Database` (see worker/core/native.ts for
// its TypeScript view). Every method goes through Guard() (napi/common.hpp) so that a C++ exception
// becomes a JS Error with the exception's message ("FILE:LINE: text" for a pd::TdbError).
#include "napi/io_napi.hpp"

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "io/database.hpp"
#include "napi/common.hpp"

namespace pd::napi {
namespace {

// Constituents per sublattice as a JS array of string arrays (phases and parameters alike).
Napi::Array ConstituentArrays(Napi::Env env, const std::vector<std::vector<std::string>>& subl) {
  Napi::Array out = Napi::Array::New(env, subl.size());
  for (uint32_t s = 0; s < subl.size(); ++s) {
    Napi::Array sub = Napi::Array::New(env, subl[s].size());
    for (uint32_t i = 0; i < subl[s].size(); ++i) sub.Set(i, subl[s][i]);
    out.Set(s, sub);
  }
  return out;
}

// What did not stop the load, as "FILE:LINE: text" lines.
Napi::Array WarningTexts(Napi::Env env, const std::vector<pd::LoadWarning>& warnings) {
  Napi::Array out = Napi::Array::New(env, warnings.size());
  for (uint32_t i = 0; i < warnings.size(); ++i) out.Set(i, warnings[i].text());
  return out;
}

// The same as records {file, line, message, phase}.
Napi::Array LoadWarnings(Napi::Env env, const std::vector<pd::LoadWarning>& warnings) {
  Napi::Array out = Napi::Array::New(env, warnings.size());
  for (uint32_t i = 0; i < warnings.size(); ++i) {
    Napi::Object o = Napi::Object::New(env);
    o.Set("file", warnings[i].file);
    o.Set("line", warnings[i].line);
    o.Set("message", warnings[i].message);
    o.Set("phase", warnings[i].phase);
    out.Set(i, o);
  }
  return out;
}

class DatabaseWrap : public Napi::ObjectWrap<DatabaseWrap> {
 public:
  // Tag that marks objects made by this class (napi_type_tag, Node-API 8), so that UnwrapDatabase
  // can reject any other object safely.
  static constexpr napi_type_tag kTag = {0x7068617365646b31ULL, 0x6461746162617365ULL};

  static Napi::Function Define(Napi::Env env) {
    return DefineClass(env, "Database",
                       {
                           StaticMethod<&DatabaseWrap::FromFile>("fromFile"),
                           StaticMethod<&DatabaseWrap::FromString>("fromString"),
                           StaticMethod<&DatabaseWrap::MobilitySummary>("mobilitySummary"),
                           InstanceMethod<&DatabaseWrap::Info>("info"),
                           InstanceMethod<&DatabaseWrap::PhasesFor>("phasesFor"),
                           InstanceMethod<&DatabaseWrap::WithOverrides>("withOverrides"),
                           InstanceMethod<&DatabaseWrap::EvaluateFunction>("evaluateFunction"),
                           InstanceMethod<&DatabaseWrap::Parameters>("parameters"),
                           InstanceMethod<&DatabaseWrap::FunctionNames>("functionNames"),
                       });
  }

  explicit DatabaseWrap(const Napi::CallbackInfo& info) : Napi::ObjectWrap<DatabaseWrap>(info) {
    // Constructed only from C++ (WrapDatabase) with an External holding the shared_ptr.
    Guard(info.Env(), [&]() {
      if (info.Length() != 1 || !info[0].IsExternal())
        throw Napi::TypeError::New(info.Env(), "use Database.fromFile(path) or Database.fromString(text, name)");
      db_ = *info[0].As<Napi::External<std::shared_ptr<const pd::Database>>>().Data();
      napi_type_tag_object(info.Env(), info.This(), &kTag);
    });
  }

  const std::shared_ptr<const pd::Database>& db() const { return db_; }

 private:
  // An optional argument: absent when undefined or null.
  static bool Given(const Napi::CallbackInfo& info, size_t k) {
    return info.Length() > k && !info[k].IsUndefined() && !info[k].IsNull();
  }

  // fromFile(path, mobilityPath?): a mobility file, when given, is read beside the thermodynamic one.
  static Napi::Value FromFile(const Napi::CallbackInfo& info) {
    return Guard(info.Env(), [&]() -> Napi::Value {
      std::string path = ArgString(info, 0, "path");
      if (Given(info, 1))
        return WrapDatabase(info.Env(), pd::Database::from_files(path, ArgString(info, 1, "mobility path")));
      return WrapDatabase(info.Env(), pd::Database::from_file(path));
    });
  }

  // mobilitySummary(text, name) -> {phases, elements, parameterCount, loadWarnings} of a file of mobility data alone
  static Napi::Value MobilitySummary(const Napi::CallbackInfo& info) {
    return Guard(info.Env(), [&]() -> Napi::Value {
      Napi::Env env = info.Env();
      const auto s = pd::Database::mobility_summary(ArgString(info, 0, "text"), ArgString(info, 1, "name"));
      auto out = Napi::Object::New(env);
      auto strings = [&](const std::vector<std::string>& v) {
        auto a = Napi::Array::New(env, v.size());
        for (size_t k = 0; k < v.size(); ++k) a.Set(uint32_t(k), v[k]);
        return a;
      };
      out.Set("phases", strings(s.phases));
      out.Set("elements", strings(s.elements));
      out.Set("parameterCount", double(s.parameters));
      out.Set("warnings", WarningTexts(env, s.warnings));
      out.Set("loadWarnings", LoadWarnings(env, s.warnings));
      return out;
    });
  }

  // fromString(text, name, mobilityText?, mobilityName?)
  static Napi::Value FromString(const Napi::CallbackInfo& info) {
    return Guard(info.Env(), [&]() -> Napi::Value {
      std::string text = ArgString(info, 0, "text");
      std::string name = info.Length() > 1 && info[1].IsString() ? info[1].As<Napi::String>().Utf8Value() : "<string>";
      if (Given(info, 2)) {
        std::string mobility = ArgString(info, 2, "mobility text");
        std::string mobility_name =
            info.Length() > 3 && info[3].IsString() ? info[3].As<Napi::String>().Utf8Value() : "<mobility string>";
        return WrapDatabase(info.Env(), pd::Database::from_strings(text, name, mobility, mobility_name));
      }
      return WrapDatabase(info.Env(), pd::Database::from_string(text, name));
    });
  }

  Napi::Value Info(const Napi::CallbackInfo& info) {
    return Guard(info.Env(), [&]() -> Napi::Value {
      Napi::Env env = info.Env();
      const pd::Database& d = *db_;
      Napi::Object out = Napi::Object::New(env);
      out.Set("file", d.file_name());
      Napi::Array els = Napi::Array::New(env);
      uint32_t k = 0;
      for (const auto& [name, e] : d.elements()) {
        Napi::Object o = Napi::Object::New(env);
        o.Set("name", e.name);
        o.Set("referencePhase", e.reference_phase);
        o.Set("mass", e.mass);
        els.Set(k++, o);
      }
      out.Set("elements", els);
      Napi::Array sps = Napi::Array::New(env);
      k = 0;
      for (const auto& [name, s] : d.species()) {
        Napi::Object o = Napi::Object::New(env);
        o.Set("name", s.name);
        Napi::Object comp = Napi::Object::New(env);
        for (const auto& [el, n] : s.composition) comp.Set(el, n);
        o.Set("composition", comp);
        o.Set("charge", s.charge);
        sps.Set(k++, o);
      }
      out.Set("species", sps);
      Napi::Array phs = Napi::Array::New(env);
      k = 0;
      for (const auto& p : d.phases()) {
        Napi::Object o = Napi::Object::New(env);
        o.Set("name", p.name);
        o.Set("options", p.options);
        Napi::Array ratios = Napi::Array::New(env, p.site_ratios.size());
        for (uint32_t i = 0; i < p.site_ratios.size(); ++i) ratios.Set(i, p.site_ratios[i]);
        o.Set("siteRatios", ratios);
        o.Set("constituents", ConstituentArrays(env, p.constituents));
        if (p.magnetic) {
          Napi::Object m = Napi::Object::New(env);
          m.Set("afm", p.magnetic->afm);
          m.Set("p", p.magnetic->p);
          o.Set("magnetic", m);
        } else {
          o.Set("magnetic", env.Null());
        }
        o.Set("disorderedPart", p.disordered_part);
        o.Set("refusal", p.refusal);
        o.Set("rejectedByDefault", Napi::Boolean::New(env, p.rejected_by_default));
        phs.Set(k++, o);
      }
      out.Set("phases", phs);
      out.Set("parameterCount", static_cast<double>(d.parameters().size()));
      out.Set("warnings", WarningTexts(env, d.warnings()));
      out.Set("loadWarnings", LoadWarnings(env, d.warnings()));
      return out;
    });
  }

  Napi::Value PhasesFor(const Napi::CallbackInfo& info) {
    return Guard(info.Env(), [&]() -> Napi::Value {
      Napi::Env env = info.Env();
      // second argument true: also the phases the file rejects by default (DEFAULT_COMMAND REJECT_PHASE)
      const bool include_rejected = info.Length() > 1 && info[1].IsBoolean() && info[1].As<Napi::Boolean>().Value();
      std::vector<std::string> phases =
          db_->phases_for(ArgStringArray(env, info[0], "element names"), include_rejected);
      Napi::Array out = Napi::Array::New(env, phases.size());
      for (uint32_t i = 0; i < phases.size(); ++i) out.Set(i, phases[i]);
      return out;
    });
  }

  Napi::Value WithOverrides(const Napi::CallbackInfo& info) {
    return Guard(info.Env(), [&]() -> Napi::Value {
      Napi::Env env = info.Env();
      if (info.Length() < 1 || !info[0].IsObject()) throw Napi::TypeError::New(env, "expected an object {NAME: value}");
      Napi::Object obj = info[0].As<Napi::Object>();
      Napi::Array keys = obj.GetPropertyNames();
      std::map<std::string, double> ov;
      for (uint32_t i = 0; i < keys.Length(); ++i) {
        std::string key = keys.Get(i).ToString().Utf8Value();
        Napi::Value v = obj.Get(key);
        if (!v.IsNumber()) throw Napi::TypeError::New(env, "override value for " + key + " must be a number");
        ov[key] = v.As<Napi::Number>().DoubleValue();
      }
      return WrapDatabase(env, db_->with_overrides(ov));
    });
  }

  Napi::Value EvaluateFunction(const Napi::CallbackInfo& info) {
    return Guard(info.Env(), [&]() -> Napi::Value {
      Napi::Env env = info.Env();
      std::string name = ArgString(info, 0, "function name");
      double T = ArgNumber(info, 1, "T");
      double P = info.Length() > 2 && info[2].IsNumber() ? info[2].As<Napi::Number>().DoubleValue() : 101325.0;
      pd::TPJet j = pd::evaluate_function(*db_, name, T, P);
      Napi::Object o = Napi::Object::New(env);
      o.Set("v", j.v);
      o.Set("t", j.t);
      o.Set("p", j.p);
      o.Set("tt", j.tt);
      o.Set("tp", j.tp);
      o.Set("pp", j.pp);
      return o;
    });
  }

  // parameters(phase?) -> [{type, writtenAsL, phase, qualifier, constituents, order, line, file}]
  Napi::Value Parameters(const Napi::CallbackInfo& info) {
    return Guard(info.Env(), [&]() -> Napi::Value {
      Napi::Env env = info.Env();
      std::string only = info.Length() > 0 && info[0].IsString() ? info[0].As<Napi::String>().Utf8Value() : "";
      for (char& c : only)
        if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
      Napi::Array out = Napi::Array::New(env);
      uint32_t k = 0;
      for (const auto& p : db_->parameters()) {
        if (!only.empty() && p.phase != only) continue;
        Napi::Object o = Napi::Object::New(env);
        o.Set("type", p.type);
        o.Set("writtenAsL", p.written_as_l);
        o.Set("phase", p.phase);
        o.Set("qualifier", p.phase_qualifier);
        o.Set("constituents", ConstituentArrays(env, p.constituents));
        o.Set("order", p.order);
        o.Set("line", p.line);
        o.Set("file", p.file);
        out.Set(k++, o);
      }
      return out;
    });
  }

  Napi::Value FunctionNames(const Napi::CallbackInfo& info) {
    return Guard(info.Env(), [&]() -> Napi::Value {
      Napi::Env env = info.Env();
      std::vector<std::string> names = db_->function_names();
      Napi::Array out = Napi::Array::New(env, names.size());
      for (uint32_t i = 0; i < names.size(); ++i) out.Set(i, names[i]);
      return out;
    });
  }

  std::shared_ptr<const pd::Database> db_;
};

PerEnvConstructor g_database_ctor;

}  // namespace

std::shared_ptr<const pd::Database> UnwrapDatabase(const Napi::Value& v) {
  Napi::Env env = v.Env();
  bool tagged = false;
  if (v.IsObject()) {
    napi_status st = napi_check_object_type_tag(env, v, &DatabaseWrap::kTag, &tagged);
    if (st != napi_ok) tagged = false;
  }
  if (!tagged) throw Napi::TypeError::New(env, "expected a Database object");
  DatabaseWrap* w = DatabaseWrap::Unwrap(v.As<Napi::Object>());
  if (w == nullptr || !w->db()) throw Napi::TypeError::New(env, "expected a Database object");
  return w->db();
}

Napi::Object WrapDatabase(Napi::Env env, std::shared_ptr<const pd::Database> db) {
  auto* holder = new std::shared_ptr<const pd::Database>(std::move(db));
  Napi::External<std::shared_ptr<const pd::Database>> ext = Napi::External<std::shared_ptr<const pd::Database>>::New(
      env, holder, [](Napi::Env, std::shared_ptr<const pd::Database>* p) { delete p; });
  return g_database_ctor.New(env, {ext}, "Database");
}

void RegisterIo(Napi::Env env, Napi::Object exports) {
  Napi::Function cls = DatabaseWrap::Define(env);
  g_database_ctor.Register(env, cls);
  exports.Set("Database", cls);
}

}  // namespace pd::napi
