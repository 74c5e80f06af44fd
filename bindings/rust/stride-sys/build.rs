// Links libstride.
//
// The library: STRIDE_LIB_DIR, when set, is the folder holding libstride.so
// (a build tree's src/ or an install's lib/); otherwise pkg-config finds an
// installed stride through stride.pc (PKG_CONFIG_PATH names a prefix outside
// the system's). Dependents read the folder as DEP_STRIDE_LIB_DIR.
use std::env;
use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-env-changed=STRIDE_LIB_DIR");
    if let Some(dir) = env::var_os("STRIDE_LIB_DIR") {
        let dir = PathBuf::from(dir);
        println!("cargo:rustc-link-search=native={}", dir.display());
        println!("cargo:rustc-link-lib=dylib=stride");
        println!("cargo:lib_dir={}", dir.display());
        return;
    }
    let version = env::var("CARGO_PKG_VERSION").expect("cargo sets CARGO_PKG_VERSION");
    match pkg_config::Config::new().atleast_version(&version).probe("stride") {
        Ok(lib) => {
            if let Some(dir) = lib.link_paths.first() {
                println!("cargo:lib_dir={}", dir.display());
            }
            if let Some(dir) = lib.include_paths.first() {
                println!("cargo:include={}", dir.display());
            }
        }
        Err(e) => panic!(
            "\nstride-sys: no libstride {} or newer found.\n\
             Install stride (cmake --install build --prefix DIR) and let pkg-config find it\n\
             (PKG_CONFIG_PATH=DIR/lib/pkgconfig), or set STRIDE_LIB_DIR to the folder holding libstride.so.\n\
             pkg-config said: {}\n",
            version, e
        ),
    }
}
