// Lets this crate's tests find libstride.so where stride-sys linked it from
// (STRIDE_LIB_DIR), without LD_LIBRARY_PATH.
//
// It also tells the tests which C functions that a library build may not
// have yet are there: `--cfg stride_has="st_copy"` for each one found, so a
// test of a missing one is reported as ignored, with the reason. Remove this
// part (and the tests' `cfg_attr(..., ignore)` lines) once the library has
// all of them.
use std::env;
use std::ffi::CString;
use std::os::raw::{c_char, c_int, c_void};

const AWAITED: &[&str] = &[
    "st_reshape", "st_contiguous", "st_clone", "st_copy", "st_to", "st_fill", "st_zero", "st_set_parallel_for",
    "st_set_trace_callback", "st_cuda_device_count", "st_cuda_set_stream", "st_cuda_synchronize",
];

#[link(name = "dl")]
extern "C" {
    fn dlopen(filename: *const c_char, flag: c_int) -> *mut c_void;
    fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
}

fn main() {
    println!("cargo:rerun-if-env-changed=DEP_STRIDE_LIB_DIR");
    if rustc_minor() >= 80 {
        // Declares the cfg to rustc's unexpected_cfgs lint (older cargo rejects the key).
        let names: Vec<String> = AWAITED.iter().map(|n| format!("\"{}\"", n)).collect();
        println!("cargo:rustc-check-cfg=cfg(stride_has, values({}))", names.join(", "));
    }
    let dir = env::var("DEP_STRIDE_LIB_DIR").ok();
    if let Some(d) = &dir {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{}", d);
    }
    let path = match &dir {
        Some(d) => format!("{}/libstride.so", d),
        None => "libstride.so".to_string(),
    };
    println!("cargo:rerun-if-changed={}", path);
    let cpath = CString::new(path.clone()).unwrap();
    const RTLD_LAZY: c_int = 1;
    let lib = unsafe { dlopen(cpath.as_ptr(), RTLD_LAZY) };
    for name in AWAITED {
        let cname = CString::new(*name).unwrap();
        // A library that cannot be opened here counts as complete: the tests then say what is missing.
        if lib.is_null() || unsafe { !dlsym(lib, cname.as_ptr()).is_null() } {
            println!("cargo:rustc-cfg=stride_has=\"{}\"", name);
        }
    }
}

/// The minor version of the rustc building this crate ("rustc 1.63.0" → 63).
fn rustc_minor() -> u32 {
    let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let out = std::process::Command::new(rustc).arg("--version").output();
    out.ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|v| v.split_whitespace().nth(1).and_then(|n| n.split('.').nth(1)).and_then(|m| m.parse().ok()))
        .unwrap_or(0)
}
