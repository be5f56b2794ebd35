{
  "target_defaults": {
    "include_dirs": ["<!(node -p \"require('node-addon-api').include_dir\")", "src"],
    "defines": ["NAPI_VERSION=8", "NAPI_CPP_EXCEPTIONS"],
    "cflags!": ["-fno-exceptions"],
    "cflags_cc!": ["-fno-exceptions", "-fno-rtti"],
    "cflags_cc": ["-std=c++17", "-O3", "-fopenmp", "-fexceptions", "-fPIC", "-Wall", "-Wno-unused-parameter"],
    "ldflags": ["-fopenmp"],
    "conditions": [
      ["OS=='mac'", {
        "xcode_settings": {
          "GCC_ENABLE_CPP_EXCEPTIONS": "YES",
          "CLANG_CXX_LANGUAGE_STANDARD": "c++17",
          "GCC_OPTIMIZATION_LEVEL": "3",
          "OTHER_CPLUSPLUSFLAGS": ["-Xpreprocessor", "-fopenmp"],
          "OTHER_LDFLAGS": ["-lomp"]
        }
      }],
      ["OS=='win'", {
        "msvs_settings": {
          "VCCLCompilerTool": { "ExceptionHandling": 1, "OpenMP": "true", "AdditionalOptions": ["/std:c++17", "/O2"] }
        }
      }]
    ]
  },
  "targets": [
    {
      "target_name": "phasedesk_core_engine",
      "type": "static_library",
      "sources": ["<!@(node tools/list-sources.cjs engine)"]
    },
    {
      "target_name": "phasedesk_core",
      "sources": ["<!@(node tools/list-sources.cjs bindings)"],
      "dependencies": ["phasedesk_core_engine"],
      "conditions": [
        ["OS=='linux'", {
          # The installers put the OpenMP runtime (libgomp.so.1) next to the addon (installer/after-pack.cjs);
          # RUNPATH $ORIGIN finds that copy first and the system one otherwise.
          "ldflags": ["-Wl,-rpath,'$$ORIGIN'"]
        }]
      ]
    },
    {
      "target_name": "phasedesk_core_testing",
      "sources": ["<!@(node tools/list-sources.cjs testing)"],
      "dependencies": ["phasedesk_core_engine"]
    }
  ]
}
