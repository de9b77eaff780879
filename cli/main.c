#include "axb.h"
#include <stdio.h>
int main(void) { printf("axb %s\n", axb_version()); return 0; }
