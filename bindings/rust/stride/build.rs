// Lets this crate's tests find libstride.so where stride-sys linked it from
// (STRIDE_LIB_DIR), without LD_LIBRARY_PATH.
use std::env;

fn main() {
    println!("cargo:rerun-if-env-changed=DEP_STRIDE_LIB_DIR");
    if let Ok(dir) = env::var("DEP_STRIDE_LIB_DIR") {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir);
    }
}
