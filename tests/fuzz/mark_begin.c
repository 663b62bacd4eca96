/* Linked before every iomon object (see fuzz.h): the start of its globals. */
_Alignas(8) char fuzz_bss_begin[8];
_Alignas(8) char fuzz_data_begin[8] = { 1 };
