/* placeholder */
#include "cli.h"
int cmd_bisect(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	return 2;
}
