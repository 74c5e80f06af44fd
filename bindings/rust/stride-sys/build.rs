// Links libstride.so. STRIDE_LIB_DIR names the folder that holds it (a
// build tree's src/ or an install's lib/); without it the system's linker
// path is searched. Dependents read the folder as DEP_STRIDE_LIB_DIR.
use std::env;

fn main() {
    println!("cargo:rerun-if-env-changed=STRIDE_LIB_DIR");
    if let Ok(dir) = env::var("STRIDE_LIB_DIR") {
        println!("cargo:rustc-link-search=native={}", dir);
        println!("cargo:lib_dir={}", dir);
    }
    println!("cargo:rustc-link-lib=dylib=stride");
}
