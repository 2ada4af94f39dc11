// Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
//! C entry point to the official BLAKE3 implementation (the `blake3` crate),
//! so the C benchmark hashes with the reference code rather than its own.

/// Writes the 32-byte BLAKE3 hash of `input[0..len]` to `out[0..32]`.
///
/// # Safety
/// `input` must be readable for `len` bytes (it may be null when `len` is 0)
/// and `out` writable for 32 bytes.
#[no_mangle]
pub unsafe extern "C" fn posp_blake3(input: *const u8, len: usize, out: *mut u8) {
    // from_raw_parts needs a non-null pointer even for an empty slice.
    let data: &[u8] = if len == 0 {
        &[]
    } else {
        core::slice::from_raw_parts(input, len)
    };
    let hash = blake3::hash(data);
    core::ptr::copy_nonoverlapping(hash.as_bytes().as_ptr(), out, blake3::OUT_LEN);
}
