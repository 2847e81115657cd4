#ifndef BRIDGED_CJANSSON_SHIM_H
#define BRIDGED_CJANSSON_SHIM_H

#include <jansson.h>
#include <string.h>

/* Macros and inline helpers that Swift cannot import directly, wrapped with a `cj_` prefix. */

static inline json_type cj_type(const json_t *json) { return json_typeof(json); }
static inline int cj_string_equals(const json_t *json, const char *bytes, size_t length) {
    return json_is_string(json) && json_string_length(json) == length && memcmp(json_string_value(json), bytes, length) == 0;
}
static inline int cj_is_object(const json_t *json) { return json_is_object(json); }
static inline int cj_is_array(const json_t *json) { return json_is_array(json); }
static inline int cj_is_string(const json_t *json) { return json_is_string(json); }
static inline int cj_is_integer(const json_t *json) { return json_is_integer(json); }
static inline int cj_is_real(const json_t *json) { return json_is_real(json); }
static inline int cj_is_number(const json_t *json) { return json_is_number(json); }
static inline int cj_is_true(const json_t *json) { return json_is_true(json); }
static inline int cj_is_false(const json_t *json) { return json_is_false(json); }
static inline int cj_is_null(const json_t *json) { return json_is_null(json); }
static inline void cj_decref(json_t *json) { json_decref(json); }
static inline json_t *cj_incref(json_t *json) { return json_incref(json); }
static inline long long cj_integer_value(const json_t *json) { return (long long)json_integer_value(json); }
static inline json_t *cj_integer(long long value) { return json_integer((json_int_t)value); }

/* Decoding flags used by the bridge: reject duplicate keys, allow \u0000 in strings, any top-level value. */
static inline size_t cj_decode_flags(void) { return JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL | JSON_DECODE_ANY; }
/* The same, with every integer decoded as a real: the second reading of a line whose integers overflow. */
static inline size_t cj_decode_flags_int_as_real(void) { return cj_decode_flags() | JSON_DECODE_INT_AS_REAL; }
/* Why a load failed (json_error_code is an inline function Swift may not see). */
static inline int cj_error_code(const json_error_t *error) { return (int)json_error_code(error); }
static inline int cj_error_stack_overflow(void) { return json_error_stack_overflow; }
static inline int cj_error_numeric_overflow(void) { return json_error_numeric_overflow; }
static inline int cj_error_null_byte_in_key(void) { return json_error_null_byte_in_key; }
static inline int cj_error_duplicate_key(void) { return json_error_duplicate_key; }
static inline int cj_error_out_of_memory(void) { return json_error_out_of_memory; }

/* Encoding flags: compact, any top-level value, keep insertion order. */
static inline size_t cj_encode_flags(void) { return JSON_COMPACT | JSON_ENCODE_ANY | JSON_PRESERVE_ORDER; }

#endif
