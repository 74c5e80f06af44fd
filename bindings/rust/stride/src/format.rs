//! Printing a tensor's values as NumPy prints an array (`Display` and `Debug` of `Tensor`).
//!
//! NumPy's default rules: lines of at most 75 characters; more than 1000
//! elements summarized with "..." keeping 3 items at each end of every
//! longer dim; floats in the shortest form that reads back as the same
//! value of their dtype, at most 8 digits after the point, scientific when
//! the values span too much; every column right-aligned.

use crate::types::DType;

pub(crate) const LINE_WIDTH: usize = 75;
pub(crate) const THRESHOLD: i64 = 1000;
pub(crate) const EDGE_ITEMS: i64 = 3;
const PRECISION: usize = 8;

/// The displayed values, read through a dtype that holds each exactly.
pub(crate) enum Values {
    Bool(Vec<bool>),
    Int(Vec<i128>), // every int64 and uint64
    Float(Vec<f64>),
    Complex(Vec<[f64; 2]>),
}

/// What to print: values in row-major order of `shape`; `cut[d]` says that
/// dim d shows EDGE_ITEMS items at each end (its size in `shape` is then 2 × EDGE_ITEMS).
pub(crate) struct Shown {
    pub values: Values,
    pub shape: Vec<i64>,
    pub cut: Vec<bool>,
    pub dtype: DType,
}

// ---- floats ------------------------------------------------------------------------

/// `x` rounded (to nearest even) to a binary format with `man_bits` mantissa
/// bits, `min_exp` the exponent of its smallest normal number; beyond `max`, ±inf.
fn round_binary(x: f64, man_bits: i32, min_exp: i32, max: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let e = ((x.abs().to_bits() >> 52) as i32 - 1023).max(min_exp);
    let ulp = 2f64.powi(e - man_bits);
    let q = x / ulp;
    let f = q.floor();
    let r = if q - f > 0.5 || (q - f == 0.5 && f % 2.0 != 0.0) { f + 1.0 } else { f } * ulp;
    if r.abs() > max {
        f64::INFINITY.copysign(x)
    } else {
        r
    }
}

/// The value `x` becomes when stored as `dtype`.
fn store(x: f64, dtype: DType) -> f64 {
    match dtype {
        DType::Float16 => round_binary(x, 10, -14, 65504.0),
        DType::BFloat16 => round_binary(x, 7, -126, 3.3895313892515355e38),
        DType::Float8E5M2 => round_binary(x, 2, -14, 57344.0),
        // No infinity: what rounds beyond 448 is NaN.
        DType::Float8E4M3Fn => match round_binary(x, 3, -6, 448.0) {
            r if r.is_infinite() => f64::NAN,
            r => r,
        },
        DType::Float32 | DType::Complex64 => x as f32 as f64,
        _ => x,
    }
}

/// (digits, decimal exponent of the first digit) of the shortest decimal that reads back as |x| in `dtype`.
fn shortest(x: f64, dtype: DType) -> (String, i32) {
    let x = x.abs();
    let text = match dtype {
        DType::Float64 | DType::Complex128 => format!("{:e}", x),
        DType::Float32 | DType::Complex64 => format!("{:e}", x as f32),
        _ => (0..17).map(|p| format!("{:.*e}", p, x)).find(|s| store(s.parse().unwrap(), dtype) == x).unwrap(),
    };
    let (mantissa, exp) = text.split_once('e').unwrap();
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let digits = digits.trim_end_matches('0');
    (if digits.is_empty() { "0".to_string() } else { digits.to_string() }, exp.parse().unwrap())
}

/// (integer part, fraction digits) of |x| written positionally.
fn positional(x: f64, dtype: DType) -> (String, String) {
    let (digits, exp) = shortest(x, dtype);
    let (int, frac) = if exp < 0 {
        ("0".to_string(), format!("{}{}", "0".repeat((-exp - 1) as usize), digits))
    } else if digits.len() as i32 <= exp + 1 {
        // Every digit before the point is written, exactly (the value is an integer).
        (format!("{:.0}", x.abs()), String::new())
    } else {
        (digits[..(exp + 1) as usize].to_string(), digits[(exp + 1) as usize..].to_string())
    };
    if frac.len() > PRECISION {
        let s = format!("{:.*}", PRECISION, x.abs());
        let (i, f) = s.split_once('.').unwrap();
        return (i.to_string(), f.trim_end_matches('0').to_string());
    }
    (int, frac)
}

struct FloatFormat {
    dtype: DType,
    exp: bool,
    sign: bool,
    precision: usize,
    exp_digits: usize,
    pad_left: usize,
    pad_right: usize,
}

impl FloatFormat {
    fn new(values: &[f64], dtype: DType, sign: bool) -> FloatFormat {
        let finite: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
        let nonzero: Vec<f64> = finite.iter().map(|v| v.abs()).filter(|v| *v != 0.0).collect();
        let (lo, hi) = nonzero.iter().fold((f64::INFINITY, 0f64), |(lo, hi), v| (lo.min(*v), hi.max(*v)));
        let exp = !nonzero.is_empty() && (hi >= 1e8 || lo < 1e-4 || hi / lo > 1e3);
        let mut f = FloatFormat { dtype, exp, sign, precision: 0, exp_digits: 2, pad_left: 0, pad_right: 0 };
        let sign_width = |v: f64| usize::from(v.is_sign_negative() || sign);
        for &v in &finite {
            if exp {
                let (digits, e) = shortest(v, dtype);
                f.precision = f.precision.max((digits.len() - 1).min(PRECISION));
                f.exp_digits = f.exp_digits.max(e.unsigned_abs().to_string().len());
                f.pad_left = f.pad_left.max(1 + sign_width(v));
            } else {
                let (int, frac) = positional(v, dtype);
                f.pad_left = f.pad_left.max(int.len() + sign_width(v));
                f.pad_right = f.pad_right.max(frac.len());
            }
        }
        if exp {
            f.pad_right = f.exp_digits + 2 + f.precision;
        }
        if finite.len() != values.len() {
            let neginf = sign || values.iter().any(|v| v.is_infinite() && *v < 0.0);
            let offset = f.pad_right + 1;
            f.pad_left = f.pad_left.max(3usize.saturating_sub(offset)).max((3 + usize::from(neginf)).saturating_sub(offset));
        }
        f
    }

    fn text(&self, v: f64) -> String {
        let sign = if v.is_sign_negative() && !v.is_nan() {
            "-"
        } else if self.sign {
            "+"
        } else {
            ""
        };
        if !v.is_finite() {
            let word = format!("{}{}", sign, if v.is_nan() { "nan" } else { "inf" });
            return format!("{:>1$}", word, self.pad_left + self.pad_right + 1);
        }
        if self.exp {
            let s = format!("{:.*e}", self.precision, v.abs());
            let (mantissa, e) = s.split_once('e').unwrap();
            let e: i32 = e.parse().unwrap();
            let mantissa = if mantissa.contains('.') { mantissa.to_string() } else { format!("{}.", mantissa) };
            let exponent = format!("{:0>1$}", e.unsigned_abs(), self.exp_digits);
            let body = format!("{}{}e{}{}", sign, mantissa, if e < 0 { '-' } else { '+' }, exponent);
            let width = self.pad_left + self.pad_right + 1;
            return format!("{:>1$}", body, width);
        }
        let (int, frac) = positional(v, self.dtype);
        format!("{:>w$}.{:<p$}", format!("{}{}", sign, int), frac, w = self.pad_left, p = self.pad_right)
    }
}

// ---- the layout: NumPy's _formatArray -------------------------------------------------

fn extend_line(s: &mut String, line: &mut String, word: &str, width: usize, indent: &str) {
    if line.len() + word.len() > width && line.len() > indent.len() {
        s.push_str(line.trim_end());
        s.push('\n');
        *line = indent.to_string();
    }
    line.push_str(word);
}

struct Layout<'a> {
    words: Vec<String>,
    shape: &'a [i64],
    cut: &'a [bool],
    separator: &'a str,
}

impl Layout<'_> {
    fn recurse(&self, dim: usize, offset: usize, indent: &str, width: usize) -> String {
        let ndim = self.shape.len();
        if dim == ndim {
            return self.words[offset].clone();
        }
        let n = self.shape[dim] as usize;
        let step: usize = self.shape[dim + 1..].iter().map(|&s| s as usize).product();
        let cut = if self.cut[dim] { Some(EDGE_ITEMS as usize) } else { None };
        let next_indent = format!("{} ", indent);
        let mut s = String::new();
        if dim == ndim - 1 {
            let elem_width = width.saturating_sub(self.separator.trim_end().len().max(1));
            let mut line = indent.to_string();
            for i in 0..n {
                if Some(i) == cut {
                    extend_line(&mut s, &mut line, "...", elem_width, indent);
                    line.push_str(self.separator);
                }
                let word = self.recurse(dim + 1, offset + i * step, &next_indent, width.saturating_sub(1));
                extend_line(&mut s, &mut line, &word, elem_width, indent);
                if i + 1 < n {
                    line.push_str(self.separator);
                }
            }
            s.push_str(&line);
        } else {
            let line_sep = format!("{}{}", self.separator.trim_end(), "\n".repeat(ndim - dim - 1));
            for i in 0..n {
                if Some(i) == cut {
                    s.push_str(indent);
                    s.push_str("...");
                    s.push_str(&line_sep);
                }
                s.push_str(indent);
                s.push_str(&self.recurse(dim + 1, offset + i * step, &next_indent, width.saturating_sub(1)));
                if i + 1 < n {
                    s.push_str(&line_sep);
                }
            }
        }
        format!("[{}]", &s[indent.len()..])
    }
}

/// The values as NumPy's array2string writes them: `separator` between
/// items, continuation lines indented by `prefix` characters, `suffix`
/// characters kept free at the end of the last line.
pub(crate) fn format(shown: &Shown, separator: &str, prefix: usize, suffix: usize) -> String {
    if shown.shape.iter().any(|&n| n == 0) {
        return "[]".to_string();
    }
    let words: Vec<String> = match &shown.values {
        Values::Bool(v) => {
            let width = if v.contains(&false) { 5 } else { 4 };
            v.iter().map(|&b| format!("{:>1$}", b, width)).collect()
        }
        Values::Int(v) => {
            let width = v.iter().map(|x| x.to_string().len()).max().unwrap_or(0);
            v.iter().map(|x| format!("{:>1$}", x, width)).collect()
        }
        Values::Float(v) => {
            let f = FloatFormat::new(v, shown.dtype, false);
            v.iter().map(|&x| f.text(x)).collect()
        }
        Values::Complex(v) => {
            let re: Vec<f64> = v.iter().map(|c| c[0]).collect();
            let im: Vec<f64> = v.iter().map(|c| c[1]).collect();
            let (fr, fi) = (FloatFormat::new(&re, shown.dtype, false), FloatFormat::new(&im, shown.dtype, true));
            v.iter()
                .map(|c| {
                    let i = fi.text(c[1]);
                    let cut = i.trim_end().len();
                    format!("{}{}j{}", fr.text(c[0]), &i[..cut], &i[cut..])
                })
                .collect()
        }
    };
    if shown.shape.is_empty() {
        return words[0].trim().to_string();
    }
    let layout = Layout { words, shape: &shown.shape, cut: &shown.cut, separator };
    layout.recurse(0, 0, &" ".repeat(prefix + 1), LINE_WIDTH - suffix)
}
