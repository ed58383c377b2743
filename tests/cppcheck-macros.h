/* cppcheck-macros.h - what cppcheck cannot see without system headers:
 * jansson's iteration macros, spelled out so it can follow the loops
 * (Makefile: cppcheck --include).  Never compiled. */
#define json_array_foreach(array, index, value) \
	for (index = 0; index < json_array_size(array) && (value = json_array_get(array, index)); index++)
