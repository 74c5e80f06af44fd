// Links libstride and writes the test that holds this crate to the header.
//
// The library: STRIDE_LIB_DIR, when set, is the folder holding libstride.so
// (a build tree's src/ or an install's lib/); otherwise pkg-config finds an
// installed stride through stride.pc (PKG_CONFIG_PATH names a prefix outside
// the system's). Dependents read the folder as DEP_STRIDE_LIB_DIR.
//
// The check: include/stride.h next to this crate (in a stride checkout) is
// read, and $OUT_DIR/header_check.rs gets, for every function, enum value,
// #define, function-pointer typedef and struct field, a statement that only
// compiles when src/lib.rs declares it with the same Rust type (see
// `mod header_check` in src/lib.rs, compiled by `cargo test`).
use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

fn main() {
    link();
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let header = Path::new(&env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"))
        .join("../../../include/stride.h");
    println!("cargo:rerun-if-changed={}", header.display());
    let check = match fs::read_to_string(&header) {
        Ok(text) => header_check(&text, &header),
        Err(_) => format!(
            "#[test]\nfn declarations_match_the_header() {{\n    println!(\"skipped: no stride.h at {}\");\n}}\n",
            header.display()
        ),
    };
    fs::write(out.join("header_check.rs"), check).expect("writing header_check.rs");
}

fn link() {
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

// ---- reading the header ---------------------------------------------------------

fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("/*") {
            rest = after.find("*/").map_or("", |i| &after[i + 2..]);
            out.push(' ');
        } else if let Some(after) = rest.strip_prefix("//") {
            rest = after.find('\n').map_or("", |i| &after[i..]);
        } else {
            let c = rest.chars().next().unwrap();
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// The text between `open` at `start` and its matching `close`.
fn enclosed(text: &str, start: usize, open: char, close: char) -> (&str, usize) {
    let mut depth = 0;
    for (i, c) in text[start..].char_indices() {
        if c == open {
            depth += 1;
        } else if c == close {
            depth -= 1;
            if depth == 0 {
                return (&text[start + 1..start + i], start + i + 1);
            }
        }
    }
    panic!("stride.h: unbalanced {}", open);
}

fn split_top(text: &str, sep: char) -> Vec<String> {
    let (mut parts, mut depth, mut cur) = (Vec::new(), 0, String::new());
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        if c == sep && depth == 0 {
            parts.push(cur.trim().to_string());
            cur.clear();
        } else {
            cur.push(c);
        }
    }
    if !cur.trim().is_empty() {
        parts.push(cur.trim().to_string());
    }
    parts
}

fn is_ident(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The Rust type of a C type, written without a parameter name.
fn rust_type(c: &str, enums: &[String]) -> String {
    let spaced = c.replace('*', " * ");
    let words: Vec<&str> = spaced.split_whitespace().filter(|w| *w != "struct").collect();
    let is_const = words.first() == Some(&"const");
    let words: Vec<&str> = words.into_iter().filter(|w| *w != "const").collect();
    let base = words[0];
    let stars = words.iter().filter(|w| **w == "*").count();
    let mut t = match base {
        "int32_t" => "i32".to_string(),
        "uint32_t" => "u32".to_string(),
        "int64_t" => "i64".to_string(),
        "uint64_t" => "u64".to_string(),
        "size_t" => "usize".to_string(),
        "double" => "f64".to_string(),
        "char" => "c_char".to_string(),
        "void" if stars == 0 => "()".to_string(),
        "void" => "c_void".to_string(),
        "DLManagedTensor" | "DLManagedTensorVersioned" => format!("dlpack::{}", base),
        e if enums.iter().any(|n| n == e) => e.to_string(),
        other if other.starts_with("st_") => other.to_string(),
        other => panic!("stride.h: unknown C type {}", other),
    };
    for i in 0..stars {
        t = format!("{} {}", if is_const && i == 0 { "*const" } else { "*mut" }, t);
    }
    t
}

/// (Rust type, name) of a declaration such as `const int64_t* sizes`.
fn declaration(text: &str, enums: &[String]) -> (String, String) {
    let text = text.trim();
    let cut = text.rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).map_or(0, |i| i + 1);
    let (ty, name) = (&text[..cut], &text[cut..]);
    assert!(is_ident(name) && !ty.trim().is_empty(), "stride.h: cannot read the declaration `{}`", text);
    (rust_type(ty, enums), name.to_string())
}

/// `unsafe extern "C" fn(...) -> ...` for a return type and a parameter list.
fn fn_type(ret: &str, params: &str, enums: &[String]) -> String {
    let args: Vec<String> = if params.trim() == "void" || params.trim().is_empty() {
        Vec::new()
    } else {
        split_top(params, ',').iter().map(|p| declaration(p, enums).0).collect()
    };
    let ret = rust_type(ret, enums);
    let arrow = if ret == "()" { String::new() } else { format!(" -> {}", ret) };
    format!("unsafe extern \"C\" fn({}){}", args.join(", "), arrow)
}

/// A function pointer written `RET (*NAME)(PARAMS)`: (name, Rust type).
fn fn_pointer(text: &str, enums: &[String]) -> Option<(String, String)> {
    let star = text.find("(*")?;
    let close = star + text[star..].find(')')?;
    let name = text[star + 2..close].trim().to_string();
    let open = close + text[close..].find('(')?;
    let (params, _) = enclosed(text, open, '(', ')');
    Some((name, format!("Option<{}>", fn_type(&text[..star], params, enums))))
}

/// (name, body) of every `typedef <kind> NAME { body } NAME;`.
fn typedef_bodies<'a>(text: &'a str, kind: &str) -> Vec<(String, &'a str)> {
    let key = format!("typedef {} ", kind);
    let (mut out, mut at) = (Vec::new(), 0);
    while let Some(i) = text[at..].find(&key) {
        let start = at + i;
        let name = text[start + key.len()..].split_whitespace().next().unwrap().to_string();
        let brace = start + text[start..].find('{').unwrap();
        let (body, end) = enclosed(text, brace, '{', '}');
        out.push((name, body));
        at = end;
    }
    out
}

fn header_check(raw: &str, path: &Path) -> String {
    let text = strip_comments(raw);
    let mut code = String::new();
    let mut count = 0;
    let mut enums = Vec::new();
    let w = &mut code;
    writeln!(w, "// Generated by build.rs from {}.", path.display()).unwrap();
    writeln!(w, "use super::*;\nuse std::os::raw::{{c_char, c_void}};").unwrap();

    // #define ST_NAME <integer>
    for line in raw.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.len() == 3 && words[0] == "#define" && words[1].starts_with("ST_") {
            if let Ok(v) = words[2].parse::<i64>() {
                writeln!(w, "const _: () = assert!({} as i64 == {});", words[1], v).unwrap();
                count += 1;
            }
        }
    }
    // typedef enum NAME { ST_X = n, ... } NAME;
    for (name, body) in typedef_bodies(&text, "enum") {
        writeln!(w, "const _: {} = 0i32;", name).unwrap();
        for entry in split_top(body, ',') {
            let (k, v) = entry.split_once('=').expect("an enum value with its number");
            let (k, v) = (k.trim(), v.trim());
            writeln!(w, "const _: {} = {};\nconst _: () = assert!({} as i64 == {});", name, k, k, v).unwrap();
            count += 1;
        }
        enums.push(name);
    }
    // typedef RET (*NAME)(PARAMS);  and  typedef struct NAME { ... } NAME;
    let mut checks = Vec::new();
    for stmt in text.split(';') {
        if let Some(rest) = stmt.find("typedef ").map(|i| &stmt[i + 8..]) {
            if rest.starts_with("enum ") || rest.starts_with("struct ") {
                continue;
            }
            if let Some((name, ty)) = fn_pointer(rest, &enums) {
                checks.push(format!("    let f: {} = None;\n    let _: {} = f;", name, ty));
                count += 1;
            }
        }
    }
    for (name, body) in typedef_bodies(&text, "struct") {
        if name == "st_api" {
            continue; // opaque in Rust: callers link the functions directly
        }
        let mut fields = String::new();
        for field in body.split(';').map(str::trim).filter(|f| !f.is_empty()) {
            let (fname, ty) = fn_pointer(field, &enums).unwrap_or_else(|| {
                let (t, n) = declaration(field, &enums);
                (n, t)
            });
            let fname = if fname == "type" { "type_".to_string() } else { fname };
            writeln!(fields, "        let _: {} = s.{};", ty, fname).unwrap();
            count += 1;
        }
        checks.push(format!("    #[allow(dead_code)]\n    fn fields_of_{}(s: {}) {{\n{}    }}", name, name, fields));
    }
    // ST_API RET NAME(PARAMS);
    let mut at = 0;
    while let Some(i) = text[at..].find("ST_API ") {
        let start = at + i + 7;
        let open = start + text[start..].find('(').unwrap();
        let head = text[start..open].trim();
        let (params, end) = enclosed(&text, open, '(', ')');
        at = end;
        if !text[end..].trim_start().starts_with(';') {
            continue; // not a declaration (the macro's own definition)
        }
        let (_, name) = declaration(head, &enums);
        let cut = head.len() - name.len();
        checks.push(format!("    let _: {} = {};", fn_type(&head[..cut], params, &enums), name));
        count += 1;
    }
    writeln!(
        w,
        "#[test]\nfn declarations_match_the_header() {{\n{}\n    println!(\"{} declarations of stride.h checked\");\n}}",
        checks.join("\n"),
        count
    )
    .unwrap();
    code
}
