/* Linked after every iomon object (see fuzz.h): the end of its globals. */
_Alignas(8) char fuzz_bss_end[8];
_Alignas(8) char fuzz_data_end[8] = { 1 };
