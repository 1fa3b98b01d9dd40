/* placeholder */
#include <stdio.h>
#include "crc32c.h"
int main(void) { crc32c_init(); printf("%s\n", crc32c_name()); return 0; }
