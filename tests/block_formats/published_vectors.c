/* The published vectors (published_vectors.h), transcribed as values. Each
 * group says where its values come from, the revision read, and how its
 * cases become blocks of API.md's calls. */
#include "published_vectors.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_QUANTIZE = 192, MAX_DEQUANTIZE = 24 };

static published_quantize g_quantize[MAX_QUANTIZE];
static published_dequantize g_dequantize[MAX_DEQUANTIZE];
static int g_nquantize, g_ndequantize, g_built;

/* What each source contributed: cases as the source counts them. */
typedef struct source_count {
  const char* repository_and_path;
  const char* what;
  int cases;
} source_count;

enum {
  TORCHAO_SEMANTIC,
  TORCHAO_E8M0_RCEIL,
  TORCHAO_TO_MX_RCEIL,
  ONNX_CAST,
  ONNX_QUANTIZE_LINEAR,
  ONNX_DEQUANTIZE_LINEAR,
  MICROXCALING_HW,
  MICROXCALING_NANS,
  NUM_SOURCES
};

static source_count g_sources[NUM_SOURCES] = {
    {"pytorch/ao torchao/testing/_mxfp8_test_utils.py",
     "make_mxfp8_semantic_cases: 18 cases x float32, bfloat16 x floor, rceil (blocks of 32)", 0},
    {"pytorch/ao torchao/testing/_mxfp8_test_utils.py", "make_f32_to_e8m0_rceil_cases (scales)", 0},
    {"pytorch/ao test/prototype/mx_formats/test_mx_tensor.py", "test_to_mx_rceil (blocks of 32)", 0},
    {"onnx/onnx onnx/backend/test/case/node/cast.py, onnx/subbyte.py",
     "test_cast_{FLOAT,FLOAT16}_to_FLOAT4E2M1, test_cast_FLOAT4E2M1_to_{FLOAT,FLOAT16} (values)", 0},
    {"onnx/onnx onnx/backend/test/case/node/quantizelinear.py", "test_quantizelinear_float4e2m1 (values)", 0},
    {"onnx/onnx onnx/backend/test/case/node/dequantizelinear.py", "test_dequantizelinear_float4e2m1 (values)", 0},
    {"microsoft/microxcaling mx/tests/test_corners_mx.py", "test_mx_hw_test, round to nearest even (values)", 0},
    {"microsoft/microxcaling mx/tests/test_corners_mx.py", "test_mx_nans, fp8_e4m3 and fp4_e2m1 (blocks)", 0},
};

static uint64_t f32_bits(float v) {
  uint32_t b;
  memcpy(&b, &v, sizeof b);
  return b;
}

static uint64_t f64_bits(double v) {
  uint64_t b;
  memcpy(&b, &v, sizeof b);
  return b;
}

static float f32_of(uint32_t bits) {
  float v;
  memcpy(&v, &bits, sizeof v);
  return v;
}

static published_quantize* add_quantize(const char* source, ref_format f, ref_rule rule, ref_float src, int n) {
  published_quantize* q = &g_quantize[g_nquantize++];
  if (g_nquantize > MAX_QUANTIZE) {
    fprintf(stderr, "published_vectors.c: more than %d quantize vectors\n", MAX_QUANTIZE);
    abort();
  }
  memset(q, 0, sizeof *q);
  q->source = source;
  q->format = f;
  q->rule = rule;
  q->src_type = src;
  q->n = n;
  return q;
}

static published_dequantize* add_dequantize(const char* source, ref_format f, ref_float dst, int n) {
  published_dequantize* d = &g_dequantize[g_ndequantize++];
  if (g_ndequantize > MAX_DEQUANTIZE) {
    fprintf(stderr, "published_vectors.c: more than %d dequantize vectors\n", MAX_DEQUANTIZE);
    abort();
  }
  memset(d, 0, sizeof *d);
  d->source = source;
  d->format = f;
  d->dst_type = dst;
  d->n = n;
  return d;
}

/* ---- torchao: make_mxfp8_semantic_cases ------------------------------------
 * pytorch/ao torchao/testing/_mxfp8_test_utils.py (read at 36027d82),
 * exercised by test/prototype/mx_formats/test_mx_tensor.py
 * test_mxfp8_corner_case_bytes: MXFP8 E4M3, blocks of 32, float32 and
 * bfloat16 sources, floor and rceil. Each case fills a block with one value
 * and may set its first element apart. Indexes: [rule][dtype], rule 0 floor,
 * 1 rceil; dtype 0 float32, 1 bfloat16.
 * Differs from API.md: the source accepts either E4M3 NaN (0x7F or 0xFF)
 * for a NaN element ("their sign is not semantically meaningful"); API.md
 * writes 0x7F, and so do these vectors. */
typedef struct semantic_case {
  const char* name;
  uint32_t fill_f32, first_f32;
  uint16_t fill_bf16, first_bf16;
  int has_first;
  uint8_t scale[2][2], fill_code[2][2], first_code[2][2];
} semantic_case;

#define ALL4(v) {{v, v}, {v, v}}
static const semantic_case kSemanticCases[] = {
    {"zero", 0x00000000, 0, 0x0000, 0, 0, ALL4(0), ALL4(0x00), ALL4(0)},
    /* E8M0 0 is 2^-127: the smallest normal 2^-126 quantizes to 2.0 */
    {"smallest_normal", 0x00800000, 0, 0x0080, 0, 0, ALL4(0), ALL4(0x40), ALL4(0)},
    {"mixed_inf", 0x3F800000, 0x7F800000, 0x3F80, 0x7F80, 1, ALL4(255), ALL4(0x7F), ALL4(0x7F)},
    {"mixed_nan", 0x3F800000, 0x7FC00000, 0x3F80, 0x7FC0, 1, ALL4(255), ALL4(0x7F), ALL4(0x7F)},
    {"positive_fp8_max", 0x43E00000, 0, 0x43E0, 0, 0, ALL4(127), ALL4(0x7E), ALL4(0)},
    {"negative_fp8_max", 0xC3E00000, 0, 0xC3E0, 0, 0, ALL4(127), ALL4(0xFE), ALL4(0)},
    /* floor 2^119 and 448 (saturated); rceil 2^120 and 256 */
    {"positive_dtype_max", 0x7F7FFFFF, 0, 0x7F7F, 0, 0, {{246, 246}, {247, 247}}, {{0x7E, 0x7E}, {0x78, 0x78}},
     ALL4(0)},
    {"negative_dtype_max", 0xFF7FFFFF, 0, 0xFF7F, 0, 0, {{246, 246}, {247, 247}}, {{0xFE, 0xFE}, {0xF8, 0xF8}},
     ALL4(0)},
    /* bfloat16's 2^-133 reaches E4M3's 2^-6 at scale 2^-127; float32's 2^-149 underflows */
    {"positive_smallest_subnormal", 0x00000001, 0, 0x0001, 0, 0, ALL4(0), {{0x00, 0x08}, {0x00, 0x08}}, ALL4(0)},
    {"negative_smallest_subnormal", 0x80000001, 0, 0x8001, 0, 0, ALL4(0), {{0x80, 0x88}, {0x80, 0x88}}, ALL4(0)},
    {"mixed_positive_underflow", 0x3F800000, 0x00000001, 0x3F80, 0x0001, 1, ALL4(119), ALL4(0x78), ALL4(0x00)},
    {"mixed_negative_underflow", 0x3F800000, 0x80000001, 0x3F80, 0x8001, 1, ALL4(119), ALL4(0x78), ALL4(0x80)},
    {"mixed_saturation_and_underflow", 0x3F800000, 0x7F7FFFFF, 0x3F80, 0x7F7F, 1, {{246, 246}, {247, 247}},
     ALL4(0x00), {{0x7E, 0x7E}, {0x78, 0x78}}},
    /* float32 3.5 + 1 ulp (0x40600001); bfloat16 rounds it to 3.5 */
    {"rceil_premature_bf16_lowers_scale", 0x40600001, 0, 0x4060, 0, 0, {{120, 120}, {121, 120}},
     {{0x7E, 0x7E}, {0x76, 0x7E}}, ALL4(0)},
    /* float32 0x43FFFFFF, just below 512; bfloat16 rounds it to 512 */
    {"floor_premature_bf16_raises_scale", 0x43FFFFFF, 0, 0x4400, 0, 0, {{127, 128}, {128, 128}},
     {{0x7E, 0x78}, {0x78, 0x78}}, ALL4(0)},
    {"all_nan", 0x7FC00000, 0, 0x7FC0, 0, 0, ALL4(255), ALL4(0x7F), ALL4(0)},
    /* 480: floor keeps scale 1 and saturates to 448; rceil takes 2 and gives 240 */
    {"positive_satfinite", 0x43F00000, 0, 0x43F0, 0, 0, {{127, 127}, {128, 128}}, {{0x7E, 0x7E}, {0x77, 0x77}},
     ALL4(0)},
    {"negative_satfinite", 0xC3F00000, 0, 0xC3F0, 0, 0, {{127, 127}, {128, 128}}, {{0xFE, 0xFE}, {0xF7, 0xF7}},
     ALL4(0)},
};
#undef ALL4

static void add_semantic_cases(void) {
  static char names[sizeof kSemanticCases / sizeof kSemanticCases[0]][2][2][96];
  for (size_t c = 0; c < sizeof kSemanticCases / sizeof kSemanticCases[0]; ++c) {
    const semantic_case* k = &kSemanticCases[c];
    for (int rule = 0; rule < 2; ++rule) {
      for (int dt = 0; dt < 2; ++dt) {
        char* name = names[c][rule][dt];
        snprintf(name, sizeof names[c][rule][dt], "torchao _mxfp8_test_utils %s (%s, %s)", k->name,
                 dt ? "bfloat16" : "float32", rule ? "rceil" : "floor");
        published_quantize* q =
            add_quantize(name, REF_MXFP8_E4M3, (ref_rule)rule, dt ? REF_BFLOAT16 : REF_FLOAT32, 32);
        for (int i = 0; i < 32; ++i) {
          const int first = i == 0 && k->has_first;
          q->x[i] = dt ? (first ? k->first_bf16 : k->fill_bf16) : (first ? k->first_f32 : k->fill_f32);
          q->codes[i] = first ? k->first_code[rule][dt] : k->fill_code[rule][dt];
        }
        q->scale = k->scale[rule][dt];
        g_sources[TORCHAO_SEMANTIC].cases++;
      }
    }
  }
}

/* ---- torchao: make_f32_to_e8m0_rceil_cases -----------------------------------
 * The same file: float32 bit patterns and the E8M0 byte that rounding them
 * up to a power of two gives (_f32_to_e8m0_rceil). RCEIL's scale of a
 * block whose amax is v * 448 (MXFP8 E4M3: the smallest k with amax <=
 * 448 * 2^k) is that byte, so each case is a float64 block of 32 copies
 * of v * 448 (exact in float64). The source gives the scale; the elements,
 * 448 * v / 2^k, are worked out here: 448 (0x7E) when v is the power of two
 * itself or just below it, 224 (0x76) just above, the poisoned 0x7F for
 * byte 255, 0 for zero and for 2^-149 (448 * 2^-22 is below E4M3's
 * smallest 2^-9). */
static const struct {
  uint32_t bits;
  uint8_t scale, code;
} kE8m0RceilCases[] = {
    {0x00000000, 0, 0x00},   {0x00000001, 0, 0x00},   {0x00400000, 0, 0x7E},   {0x00400001, 1, 0x76},
    {0x007FFFFF, 1, 0x7E},   {0x00800000, 1, 0x7E},   {0x1F800000, 63, 0x7E},  {0x1F800001, 64, 0x76},
    {0x3F7FFFFF, 127, 0x7E}, {0x3F800000, 127, 0x7E}, {0x3F800001, 128, 0x76}, {0x5F800000, 191, 0x7E},
    {0x5F800001, 192, 0x76}, {0x7F000000, 254, 0x7E}, {0x7F000001, 255, 0x7F}, {0x7F7FFFFF, 255, 0x7F},
    {0x7F800000, 255, 0x7F}, {0x7FC00000, 255, 0x7F},
};

static void add_e8m0_rceil_cases(void) {
  static char names[sizeof kE8m0RceilCases / sizeof kE8m0RceilCases[0]][96];
  for (size_t c = 0; c < sizeof kE8m0RceilCases / sizeof kE8m0RceilCases[0]; ++c) {
    snprintf(names[c], sizeof names[c], "torchao make_f32_to_e8m0_rceil_cases 0x%08X * 448",
             (unsigned)kE8m0RceilCases[c].bits);
    published_quantize* q = add_quantize(names[c], REF_MXFP8_E4M3, REF_RCEIL, REF_FLOAT64, 32);
    const double amax = (double)f32_of(kE8m0RceilCases[c].bits) * 448.0; /* exact: 24 + 3 bits */
    for (int i = 0; i < 32; ++i) {
      q->x[i] = f64_bits(amax);
      q->codes[i] = kE8m0RceilCases[c].code;
    }
    q->scale = kE8m0RceilCases[c].scale;
    g_sources[TORCHAO_E8M0_RCEIL].cases++;
  }
}

/* ---- torchao: test_to_mx_rceil ---------------------------------------------
 * pytorch/ao test/prototype/mx_formats/test_mx_tensor.py (read at 36027d82):
 * MXTensor.to_mx(data, float8_e4m3fn, 32, RCEIL), inputs as float32 or
 * bfloat16 bit patterns, expected E8M0 byte and E4M3 bytes.
 * Differs from API.md: for the "nan" block the source asserts only that the
 * scale and every element are NaN; API.md fixes them as 0xFF and 0x7F. */
static const uint32_t kRceilNanF32[32] = {
    2143289344, 1054459450, 1060527345, 1045656552, 1058239340, 1045057552, 1061158006, 1049626606,
    1052757568, 1032293288, 1056992320, 1064929425, 1061036255, 1047450552, 1057077424, 1055125012,
    1036491424, 1063542041, 1057099838, 1058731224, 1050189482, 1049114228, 1058347802, 1060065968,
    1058846156, 1048878912, 1065109089, 1054494928, 1044803976, 1049117692, 1065222528, 1056965012};
static const uint32_t kRceilDenormF32[32] = {
    6142315, 5096174, 3345704, 6178415, 5728750, 419002,  1716691, 4335089, 5785800, 6234845, 1697524,
    33075,   3975816, 3714822, 5411407, 3040844, 7400945, 4474166, 7257182, 1273750, 5872176, 4694081,
    2096530, 6273621, 67028,   7585260, 4532315, 4599275, 6133942, 4542483, 5992199, 6862780};
static const uint8_t kRceilDenormF32Codes[32] = {60, 58, 53, 60, 59, 29, 45, 56, 59, 60, 45, 4,  55, 54, 58, 52,
                                                 62, 57, 62, 42, 59, 57, 48, 60, 8,  62, 57, 57, 60, 57, 59, 61};
static const uint32_t kRceilDenormBf16[32] = {101, 3,  47, 54, 36, 19, 70, 79, 35, 95, 28, 120, 84, 94, 20, 92,
                                              18,  42, 98, 58, 3,  26, 64, 86, 60, 86, 52, 23,  61, 70, 59, 74};
static const uint8_t kRceilDenormBf16Codes[32] = {61, 20, 52, 54, 49, 42, 57, 58, 49, 60, 46, 63, 58, 60, 42, 60,
                                                  41, 50, 60, 54, 20, 45, 56, 59, 55, 59, 53, 44, 55, 57, 55, 57};
static const uint32_t kRceilSomeDenormF32[32] = {
    8388608,    1063716449, 1064039365, 1063568877, 1051091338, 1062185569, 1034449408, 1060813641,
    1054893736, 1034907680, 1036660744, 1023639888, 1058536559, 1050896496, 1049237634, 1064950601,
    1051852994, 1059794063, 1054011102, 1062023602, 1059467900, 1062276774, 1059155029, 1053287574,
    1064378711, 1055768540, 1045266076, 1059575077, 1054928758, 1040468200, 1058061961, 1053066436};
static const uint8_t kRceilSomeDenormF32Codes[32] = {0,   118, 119, 118, 106, 117, 91,  116, 110, 91,  93,
                                                     80,  113, 106, 105, 120, 107, 115, 109, 117, 114, 117,
                                                     114, 108, 119, 111, 101, 114, 110, 96,  113, 108};
static const uint32_t kRceilSomeDenormBf16[32] = {128,   16118, 16143, 16074, 16187, 16002, 16193, 16217,
                                                  15680, 16183, 16092, 16158, 16251, 15876, 15896, 16194,
                                                  16135, 16214, 16205, 16110, 16122, 15960, 15824, 16106,
                                                  16220, 16230, 15952, 15896, 16000, 16144, 16232, 16157};
static const uint8_t kRceilSomeDenormBf16Codes[32] = {0,   111, 113, 109, 116, 104, 116, 118, 84,  115, 110,
                                                      114, 120, 96,  98,  116, 112, 117, 117, 111, 112, 102,
                                                      93,  111, 118, 118, 101, 98,  104, 113, 118, 114};
static const uint32_t kRceilNormalF32[32] = {
    1037408064, 1058534842, 1053630662, 1063310394, 994704128,  1057245441, 1060663708, 1058053571,
    1052395648, 1064831570, 1038427336, 1064777688, 1059248393, 1060959028, 1062878286, 1057799482,
    1057854101, 1053562724, 1027482352, 1060498324, 1063238522, 1060472055, 1054346794, 1029092912,
    1056687298, 1059146141, 1037992128, 1064097772, 1056522806, 1059255744, 1064364912, 1060606252};
static const uint8_t kRceilNormalF32Codes[32] = {93,  113, 109, 118, 53,  112, 116, 113, 108, 120, 94,
                                                 119, 114, 116, 118, 113, 113, 109, 84,  115, 118, 115,
                                                 110, 85,  112, 114, 94,  119, 112, 114, 119, 115};
static const uint32_t kRceilNormalBf16[32] = {15752, 16143, 16182, 15896, 16195, 16186, 16048, 16223,
                                              15988, 16231, 16140, 16088, 16032, 16240, 16228, 16133,
                                              16210, 16024, 16248, 16187, 16050, 15696, 16060, 15956,
                                              16131, 16251, 15896, 16014, 15808, 16024, 16159, 16186};
static const uint8_t kRceilNormalBf16Codes[32] = {88,  113, 115, 98,  116, 116, 107, 118, 103, 118, 113,
                                                  110, 106, 119, 118, 112, 117, 106, 120, 116, 107, 85,
                                                  108, 101, 112, 120, 98,  105, 92,  106, 114, 116};
static const uint8_t kPoisonE4m3[32] = {0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F,
                                        0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F,
                                        0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F};
static const uint32_t kZeros[32] = {0};
static const uint8_t kZeroCodes[32] = {0};

static void add_to_mx_rceil_cases(void) {
  static const struct {
    const char* name;
    ref_float src;
    const uint32_t* x;
    uint8_t scale;
    const uint8_t* codes;
  } cases[] = {
      {"torchao test_to_mx_rceil nan", REF_FLOAT32, kRceilNanF32, 255, kPoisonE4m3},
      {"torchao test_to_mx_rceil fp32 denorm", REF_FLOAT32, kRceilDenormF32, 0, kRceilDenormF32Codes},
      {"torchao test_to_mx_rceil bf16 denorm", REF_BFLOAT16, kRceilDenormBf16, 0, kRceilDenormBf16Codes},
      {"torchao test_to_mx_rceil fp32 some denorm", REF_FLOAT32, kRceilSomeDenormF32, 119, kRceilSomeDenormF32Codes},
      {"torchao test_to_mx_rceil bf16 some denorm", REF_BFLOAT16, kRceilSomeDenormBf16, 119,
       kRceilSomeDenormBf16Codes},
      {"torchao test_to_mx_rceil zero", REF_FLOAT32, kZeros, 0, kZeroCodes},
      {"torchao test_to_mx_rceil fp32 normal", REF_FLOAT32, kRceilNormalF32, 119, kRceilNormalF32Codes},
      {"torchao test_to_mx_rceil bf16 normal", REF_BFLOAT16, kRceilNormalBf16, 119, kRceilNormalBf16Codes},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    published_quantize* q = add_quantize(cases[c].name, REF_MXFP8_E4M3, REF_RCEIL, cases[c].src, 32);
    for (int i = 0; i < 32; ++i) {
      q->x[i] = cases[c].x[i];
      q->codes[i] = cases[c].codes[i];
    }
    q->scale = cases[c].scale;
    g_sources[TORCHAO_TO_MX_RCEIL].cases++;
  }
}

/* ---- ONNX: float4e2m1 Cast ----------------------------------------------------
 * onnx/onnx onnx/backend/test/case/node/cast.py (read at f7546912, and at
 * e055cc80, where the expected outputs came from onnx/subbyte.py
 * _float32_to_float4e2m1_unpacked): the 15 inputs below cast from float32
 * and from float16 (np.float32(...).astype(np.float16)) to float4e2m1 give
 * the codes below; NaN gives +6 (0x7), ±inf ±6, -0.0 the sign bit 0x8.
 *
 * A cast is an element rounded with scale 1. NVFP4 reaches one with a
 * saturating element rule: with g = 2^-9 and a block whose amax exceeds
 * 448 * 6 g, s is 448 and every element is x / (448 g) = x / (7/8), so a
 * float64 block of x * 7/8 (exact: 24 + 3 bits) gives the cast of x; ±inf
 * (with no NaN) keeps s = 448 and gives ±6. NaN poisons its block (scale
 * 0x7F, every element 0x7), so it sits in a block of its own with one 0
 * (whose 0x7 is the block rule, not ONNX's).
 *
 * The inputs, as ONNX spells them: "0.48", "0.25", "1.05", "-3.5", "-8",
 * "9", "1000000", "1e-7", "NaN", "INF", "+INF", "-INF", "-4", "0.01",
 * "-0.0"; as float32: */
static const uint32_t kCastInputBitsF32[15] = {0x3EF5C28F, 0x3E800000, 0x3F866666, 0xC0600000, 0xC1000000,
                                               0x41100000, 0x49742400, 0x33D6BF95, 0x7FC00000, 0x7F800000,
                                               0x7F800000, 0xFF800000, 0xC0800000, 0x3C23D70A, 0x80000000};
/* The same values as float16: 0.47998, 0.25, 1.0498, -3.5, -8, 9, inf (1e6
 * overflows), 1.19e-7 (a subnormal), NaN, inf, inf, -inf, -4, 0.010002, -0. */
static const uint16_t kCastInputBitsF16[15] = {0x37AE, 0x3400, 0x3C33, 0xC300, 0xC800, 0x4880, 0x7C00, 0x0002,
                                               0x7E00, 0x7C00, 0x7C00, 0xFC00, 0xC400, 0x211F, 0x8000};
static const uint8_t kCastCodes[15] = {0x1, 0x0, 0x2, 0xE, 0xF, 0x7, 0x7, 0x0, 0x7, 0x7, 0x7, 0xF, 0xE, 0x0, 0x8};
/* The codes above back to float32 (test_cast_FLOAT4E2M1_to_FLOAT): 0.5, 0,
 * 1, -4, -6, 6, 6, 0, 6, 6, 6, -6, -4, 0, -0. */
static const float kCastDecoded[15] = {0.5f, 0.0f, 1.0f, -4.0f, -6.0f, 6.0f, 6.0f, 0.0f,
                                       6.0f, 6.0f, 6.0f, -6.0f, -4.0f, 0.0f, -0.0f};
/* And to float16. */
static const uint16_t kCastDecodedF16[15] = {0x3800, 0x0000, 0x3C00, 0xC400, 0xC600, 0x4600, 0x4600, 0x0000,
                                             0x4600, 0x4600, 0x4600, 0xC600, 0xC400, 0x0000, 0x8000};

static double value_of_bits(ref_float t, uint32_t bits) {
  if (t == REF_FLOAT32) return (double)f32_of(bits);
  /* float16 to double by its fields (exact) */
  const int e = (bits >> 10) & 0x1F, m = bits & 0x3FF, negative = (bits >> 15) & 1;
  double v;
  if (e == 0x1F) {
    v = m ? (double)f32_of(0x7FC00000) : (double)f32_of(0x7F800000);
  } else if (e == 0) {
    v = (double)m / 16777216.0; /* m * 2^-24 */
  } else {
    v = (double)(m | 0x400) / 1024.0;
    for (int i = 15; i < e; ++i) v *= 2.0;
    for (int i = e; i < 15; ++i) v /= 2.0;
  }
  return negative ? -v : v;
}

static void add_cast_cases(void) {
  static const uint32_t g = 0x3B000000; /* 2^-9 */
  for (int from = 0; from < 2; ++from) {
    const ref_float t = from ? REF_FLOAT16 : REF_FLOAT32;
    published_quantize* finite = add_quantize(
        from ? "onnx test_cast_FLOAT16_to_FLOAT4E2M1 (NVFP4, g 2^-9, x * 7/8)"
             : "onnx test_cast_FLOAT_to_FLOAT4E2M1 (NVFP4, g 2^-9, x * 7/8)",
        REF_NVFP4, REF_FLOOR, REF_FLOAT64, 16);
    published_quantize* nan = add_quantize(from ? "onnx test_cast_FLOAT16_to_FLOAT4E2M1 NaN (NVFP4 block of its own)"
                                                : "onnx test_cast_FLOAT_to_FLOAT4E2M1 NaN (NVFP4 block of its own)",
                                           REF_NVFP4, REF_FLOOR, REF_FLOAT64, 2);
    finite->global_scale_bits = nan->global_scale_bits = g;
    int j = 0;
    for (int i = 0; i < 15; ++i) {
      const uint32_t bits = from ? kCastInputBitsF16[i] : kCastInputBitsF32[i];
      const double x = value_of_bits(t, bits);
      if (x != x) {
        nan->x[0] = f64_bits(x);
        nan->codes[0] = kCastCodes[i];
        continue;
      }
      finite->x[j] = f64_bits(x * 0.875);
      finite->codes[j++] = kCastCodes[i];
    }
    /* 14 values and two zeros; the block's amax (1e6, or inf) makes s 448. */
    finite->x[j] = f64_bits(0.0);
    finite->codes[j++] = 0x0;
    finite->x[j] = f64_bits(0.0);
    finite->codes[j++] = 0x0;
    finite->scale = 0x7E;
    nan->x[1] = f64_bits(0.0);
    nan->codes[1] = 0x7; /* the NaN block rule */
    nan->scale = 0x7F;
    g_sources[ONNX_CAST].cases += 15;
  }
  /* test_cast_FLOAT4E2M1_to_FLOAT / _FLOAT16: MXFP4 with scale 2^0 (0x7F).
   * 15 codes and a 0 to make the size even. */
  for (int to = 0; to < 2; ++to) {
    published_dequantize* d =
        add_dequantize(to ? "onnx test_cast_FLOAT4E2M1_to_FLOAT16 (MXFP4, scale 1)"
                          : "onnx test_cast_FLOAT4E2M1_to_FLOAT (MXFP4, scale 1)",
                       REF_MXFP4_E2M1, to ? REF_FLOAT16 : REF_FLOAT32, 16);
    d->scale = 127;
    for (int i = 0; i < 15; ++i) {
      d->codes[i] = kCastCodes[i];
      d->y[i] = to ? kCastDecodedF16[i] : f32_bits(kCastDecoded[i]);
    }
    d->codes[15] = 0;
    d->y[15] = 0;
    g_sources[ONNX_CAST].cases += 15;
  }
}

/* ---- ONNX: QuantizeLinear and DequantizeLinear to float4e2m1 -------------------
 * onnx/onnx onnx/backend/test/case/node/quantizelinear.py
 * test_quantizelinear_float4e2m1 (read at f7546912): rows x scaled by 2, 3
 * and 4 (y = x / scale rounded to float4e2m1, saturating):
 *   [0, 2.5, 4.8, 8.6] / 2 -> [0, 1, 2, 4]
 *   [-30, -20, 6, 9] / 3   -> [-6, -6, 2, 3]
 *   [-0, -2.5, -4.8, -8.6] / 4 -> [-0 (ONNX writes 0 and compares values), -0.5, -1, -2]
 * Rows 1 and 3 are MXFP4 blocks with scale 2 and 4: FLOOR gives 2 for amax
 * 8.6; a fifth element 16 makes it 4 for the third row (and quantizes to 4,
 * 0x6), a sixth 0 makes the size even. They are also NVFP4 blocks as the
 * cast above (g = 2^-9, s = 448 from a 1e6 element that saturates to 6):
 * x * 7/8 / scale, exact. Row 2's scale 3 is no power of two and no
 * s * g that a block's amax leads to, but its x / 3 saturate or land on
 * the grid: NVFP4 as the cast, x * 7/24 in float64 (-20 * 7/24 rounds in
 * float64, -6.67 -> -6 regardless).
 * dequantizelinear.py test_dequantizelinear_float4e2m1: codes [0, 1, -1,
 * 1.5, -4] times 2 -> [0, 2, -2, 3, -8] float32: MXFP4 with scale 2 (0x80)
 * and NVFP4 with s = 2 (0x40) and g = 1, a 0 code making the size even. */
static void add_quantize_linear_cases(void) {
  static const float rows[3][4] = {{0.0f, 2.5f, 4.8f, 8.6f}, {-30.0f, -20.0f, 6.0f, 9.0f}, {-0.0f, -2.5f, -4.8f, -8.6f}};
  static const uint8_t codes[3][4] = {{0x0, 0x2, 0x4, 0x6}, {0xF, 0xF, 0x4, 0x5}, {0x8, 0x9, 0xA, 0xC}};
  static const double scale[3] = {2.0, 3.0, 4.0};
  for (int r = 0; r < 3; ++r) {
    if (r != 1) {
      published_quantize* q = add_quantize(r ? "onnx test_quantizelinear_float4e2m1 row 3 (MXFP4, scale 4)"
                                             : "onnx test_quantizelinear_float4e2m1 row 1 (MXFP4, scale 2)",
                                           REF_MXFP4_E2M1, REF_FLOOR, REF_FLOAT32, 6);
      for (int i = 0; i < 4; ++i) {
        q->x[i] = f32_bits(rows[r][i]);
        q->codes[i] = codes[r][i];
      }
      q->x[4] = f32_bits(r ? 16.0f : 0.0f);
      q->codes[4] = r ? 0x6 : 0x0;
      q->x[5] = f32_bits(0.0f);
      q->codes[5] = 0x0;
      q->scale = r ? 129 : 128;
    }
    published_quantize* q = add_quantize(r == 0   ? "onnx test_quantizelinear_float4e2m1 row 1 (NVFP4, x * 7/16)"
                                         : r == 1 ? "onnx test_quantizelinear_float4e2m1 row 2 (NVFP4, x * 7/24)"
                                                  : "onnx test_quantizelinear_float4e2m1 row 3 (NVFP4, x * 7/32)",
                                         REF_NVFP4, REF_FLOOR, REF_FLOAT64, 6);
    q->global_scale_bits = 0x3B000000; /* 2^-9 */
    for (int i = 0; i < 4; ++i) {
      q->x[i] = f64_bits((double)rows[r][i] * 0.875 / scale[r]);
      q->codes[i] = codes[r][i];
    }
    q->x[4] = f64_bits(1000000.0);
    q->codes[4] = 0x7;
    q->x[5] = f64_bits(0.0);
    q->codes[5] = 0x0;
    q->scale = 0x7E;
    g_sources[ONNX_QUANTIZE_LINEAR].cases += 4;
  }

  static const uint8_t dq_codes[6] = {0x0, 0x2, 0xA, 0x3, 0xE, 0x0};
  static const float dq_y[6] = {0.0f, 2.0f, -2.0f, 3.0f, -8.0f, 0.0f};
  published_dequantize* mx =
      add_dequantize("onnx test_dequantizelinear_float4e2m1 (MXFP4, scale 2)", REF_MXFP4_E2M1, REF_FLOAT32, 6);
  published_dequantize* nv =
      add_dequantize("onnx test_dequantizelinear_float4e2m1 (NVFP4, s 2, g 1)", REF_NVFP4, REF_FLOAT32, 6);
  mx->scale = 128;
  nv->scale = 0x40;
  nv->global_scale_bits = 0x3F800000;
  for (int i = 0; i < 6; ++i) {
    mx->codes[i] = nv->codes[i] = dq_codes[i];
    mx->y[i] = nv->y[i] = f32_bits(dq_y[i]);
  }
  g_sources[ONNX_DEQUANTIZE_LINEAR].cases += 5;
}

/* ---- microxcaling: test_corners_mx.py ------------------------------------------
 * microsoft/microxcaling mx/tests/test_corners_mx.py (read at 4adf988d).
 *
 * test_mx_hw_test: int8 elements, blocks of 10 along the rows, E8M0 scale,
 * round='nearest' (ties away from zero). Each row of 10 is a partial MXINT8
 * block (n = 10); the expected values below are the source's with ties
 * rounded to even, as API.md rounds; where they differ, the source's
 * ties-away value follows in the comment. The scale is 2^floor(log2 amax)
 * (INT8's emax is 0); codes are y / scale * 64.
 *
 * test_mx_nans: [v, 0, 2^127, 0] with v NaN, inf or -inf, fp8_e4m3 and
 * fp4_e2m1 elements, block size 4: every output NaN. As a partial block of
 * 4, API.md's poisoned block: scale 0xFF, every element 0x7F (E4M3) or 0x7
 * (E2M1). Its int4 case and test_mxfp_rounding (int4) have no stride
 * format. */
static const float kHwX[7][10] = {
    {1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f},
    {1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 2.0f, 2.0f, 2.0f, 2.0f, 2.0f},
    {-1.0f, -1.0f, -1.0f, -1.0f, -1.0f, -2.0f, -2.0f, -2.0f, -2.0f, -2.0f},
    {1.0f, 1.0f, 1.0f, 1.0f, 1.0f, -2.0f, -2.0f, -2.0f, -2.0f, -2.0f},
    {1.015625f, 1.0234375f, 1.03125f, 1.0390625f, 1.25f, 1.2578125f, 1.9375f, 1.9453125f, 1.984375f, 1.9921875f},
    {-1.984375f, -1.9765625f, -1.96875f, -1.9609375f, -1.9375f, -1.9296875f, -1.75f, -1.7421875f, -1.0f,
     -1.9921875f},
    {1.99609375f, 1.98828125f, 0.0f, 0.00390625f, 0.0078125f, 0.01171875f, -0.015625f, -0.01171875f, -0.0078125f,
     -0.00390625f},
};
static const float kHwY[7][10] = {
    {1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f},
    {1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 2.0f, 2.0f, 2.0f, 2.0f, 2.0f},
    {-1.0f, -1.0f, -1.0f, -1.0f, -1.0f, -2.0f, -2.0f, -2.0f, -2.0f, -2.0f},
    {1.0f, 1.0f, 1.0f, 1.0f, 1.0f, -2.0f, -2.0f, -2.0f, -2.0f, -2.0f},
    {1.015625f, 1.03125f, 1.03125f, 1.03125f /* ties away: 1.046875 */, 1.25f, 1.25f /* 1.265625 */, 1.9375f,
     1.9375f /* 1.953125 */, 1.984375f, 1.984375f},
    {-1.984375f, -1.96875f /* ties away: -1.984375 */, -1.96875f, -1.96875f, -1.9375f, -1.9375f, -1.75f, -1.75f,
     -1.0f, -1.984375f},
    {1.984375f, 1.984375f, 0.0f, 0.0f, 0.0f /* ties away: 0.015625 */, 0.015625f, -0.015625f, -0.015625f,
     0.0f /* ties away: -0.015625; an int8 zero has no sign */, 0.0f},
};
static const uint8_t kHwScale[7] = {127, 128, 128, 128, 127, 127, 127};

static void add_microxcaling_cases(void) {
  static char names[7][80];
  for (int r = 0; r < 7; ++r) {
    snprintf(names[r], sizeof names[r], "microxcaling test_mx_hw_test row %d (MXINT8, n 10, even ties)", r + 1);
    published_quantize* q = add_quantize(names[r], REF_MXINT8, REF_FLOOR, REF_FLOAT32, 10);
    const double scale = kHwScale[r] == 127 ? 1.0 : 2.0;
    for (int i = 0; i < 10; ++i) {
      q->x[i] = f32_bits(kHwX[r][i]);
      const int code = (int)((double)kHwY[r][i] / scale * 64.0); /* exact */
      q->codes[i] = (uint8_t)(code & 0xFF);
    }
    q->scale = kHwScale[r];
    /* and the codes back to float32: the source's y */
    published_dequantize* d = add_dequantize(names[r], REF_MXINT8, REF_FLOAT32, 10);
    for (int i = 0; i < 10; ++i) {
      d->codes[i] = q->codes[i];
      d->y[i] = f32_bits(kHwY[r][i]);
    }
    d->scale = kHwScale[r];
    g_sources[MICROXCALING_HW].cases += 10;
  }
  static const char* nan_names[2][3] = {
      {"microxcaling test_mx_nans NaN fp8_e4m3", "microxcaling test_mx_nans Inf fp8_e4m3",
       "microxcaling test_mx_nans -Inf fp8_e4m3"},
      {"microxcaling test_mx_nans NaN fp4_e2m1", "microxcaling test_mx_nans Inf fp4_e2m1",
       "microxcaling test_mx_nans -Inf fp4_e2m1"}};
  static const uint32_t specials[3] = {0x7FC00000, 0x7F800000, 0xFF800000};
  for (int f = 0; f < 2; ++f) {
    for (int v = 0; v < 3; ++v) {
      const ref_format format = f ? REF_MXFP4_E2M1 : REF_MXFP8_E4M3;
      published_quantize* q = add_quantize(nan_names[f][v], format, REF_FLOOR, REF_FLOAT32, 4);
      q->x[0] = specials[v];
      q->x[1] = 0;
      q->x[2] = 0x7F000000; /* 2^127 */
      q->x[3] = 0;
      for (int i = 0; i < 4; ++i) q->codes[i] = f ? 0x7 : 0x7F;
      q->scale = 0xFF;
      g_sources[MICROXCALING_NANS].cases++;
    }
  }
}

static void build(void) {
  if (g_built) return;
  g_built = 1;
  add_semantic_cases();
  add_e8m0_rceil_cases();
  add_to_mx_rceil_cases();
  add_cast_cases();
  add_quantize_linear_cases();
  add_microxcaling_cases();
}

int published_quantize_count(void) {
  build();
  return g_nquantize;
}

const published_quantize* published_quantize_vector(int i) {
  build();
  return &g_quantize[i];
}

int published_dequantize_count(void) {
  build();
  return g_ndequantize;
}

const published_dequantize* published_dequantize_vector(int i) {
  build();
  return &g_dequantize[i];
}

void published_print_sources(void) {
  build();
  int total = 0;
  for (int s = 0; s < NUM_SOURCES; ++s) {
    printf("  %3d  %s: %s\n", g_sources[s].cases, g_sources[s].repository_and_path, g_sources[s].what);
    total += g_sources[s].cases;
  }
  printf("  %3d  published cases in %d quantize and %d dequantize blocks\n", total, g_nquantize, g_ndequantize);
}
