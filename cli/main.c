/* axb: the command-line tool.  Dispatches to the subcommands. */
#include "cli.h"

#include <string.h>

typedef struct {
  const char *name;
  int (*run)(int argc, char **argv);
  void (*help)(FILE *f);
} command;

static const command commands[] = {{"solve", cli_solve, cli_help_solve},
                                   {"demo", cli_demo, cli_help_demo},
                                   {"gen", cli_gen, cli_help_gen},
                                   {"info", cli_info, cli_help_info},
                                   {"bench", cli_bench, cli_help_bench},
                                   {"tune", cli_tune, cli_help_tune},
                                   {NULL, NULL, NULL}};

static const command *find(const char *name) {
  for (const command *c = commands; c->name; c++)
    if (strcmp(c->name, name) == 0) return c;
  return NULL;
}

static int is_help(const char *w) {
  return strcmp(w, "--help") == 0 || strcmp(w, "-h") == 0;
}

/* axb help [COMMAND] */
static int help(int argc, char **argv) {
  if (argc < 3) {
    cli_help_main(stdout);
    return CLI_OK;
  }
  if (argc > 3) return cli_usage_error(NULL, "help takes one COMMAND");
  const command *c = find(argv[2]);
  if (!c) return cli_usage_error(NULL, "unknown command '%s'", argv[2]);
  c->help(stdout);
  return CLI_OK;
}

int main(int argc, char **argv) {
  if (argc < 2 || !argv[1]) {
    cli_help_main(stderr);
    return CLI_USAGE;
  }
  const char *w = argv[1];
  if (is_help(w)) {
    cli_help_main(stdout);
    return CLI_OK;
  }
  if (strcmp(w, "--version") == 0 || strcmp(w, "-V") == 0) {
    printf("axb %s\n", axb_version());
    return CLI_OK;
  }
  if (strcmp(w, "help") == 0) return help(argc, argv);
  const command *c = find(w);
  if (c) return c->run(argc, argv);
  if (w[0] == '-') return cli_usage_error(NULL, "unknown option '%s'", w);
  return cli_usage_error(NULL, "unknown command '%s'", w);
}
