/* Usage texts of the axb command and its subcommands. */
#include "cli.h"

static void exit_codes(FILE *f) { fprintf(f, "\n%s", cli_exit_codes_help); }

void cli_help_main(FILE *f) {
  fprintf(f,
          "axb %s: solve Ax = b on multicore CPUs and NVIDIA GPUs, with a\n"
          "certificate of accuracy.\n"
          "\n"
          "Usage: axb COMMAND [OPTIONS]\n"
          "\n"
          "Commands:\n"
          "  solve    solve A x = b from Matrix Market / text files or a "
          "generator\n"
          "  demo     solve three built-in problems (no files, no GPU needed)\n"
          "  gen      write a generated matrix as a Matrix Market file\n"
          "  info     version, backends, CUDA devices, BLAS, threads\n"
          "  bench    timed comparisons: tables, JSON/CSV, plots\n"
          "  tune     measure the CPU/GPU crossovers used by --backend auto\n"
          "  help     this text, or 'axb help COMMAND' for a command's "
          "options\n"
          "\n"
          "Options:\n"
          "  -h, --help     this text\n"
          "  -V, --version  print the version and exit\n"
          "\n"
          "Examples:\n"
          "  axb demo\n"
          "  axb solve A.mtx b.mtx -o x.mtx\n"
          "  axb solve --gen spd:2000 --method cholesky --json\n"
          "  axb gen poisson2d:40 -o poisson.mtx\n"
          "\n"
          "Run 'axb COMMAND --help' for the options of a command.\n",
          axb_version());
  exit_codes(f);
}

void cli_help_solve(FILE *f) {
  fputs(
      "Usage: axb solve A.mtx [b.mtx] [OPTIONS]\n"
      "       axb solve --gen SPEC [b.mtx] [OPTIONS]\n"
      "\n"
      "Solve A X = B and print a report: problem, method, backend, times,\n"
      "GFLOP/s, backward error ||b-Ax||inf/(||A||inf ||x||inf n eps) with a\n"
      "verdict (ok below 30), rcond and kappa_1 ~ 1/rcond, the forward error\n"
      "when x_true is known, and the status.\n"
      "\n"
      "A and b are read as Matrix Market (coordinate or array, .mtx or\n"
      ".mtx.gz) or plain text (one row per line); b must be n x k.  Without\n"
      "b, b = A x_true is generated (x_true = ones by default).\n"
      "\n"
      "Input:\n"
      "  --gen SPEC           generate A instead of reading it: KIND:N[,key="
      "value...]\n"
      "                       e.g. spd:2000, cond:500,kappa=1e8, "
      "poisson2d:40,\n"
      "                       uniform:1000,seed=7.  Kinds: uniform, "
      "uniform1000,\n"
      "                       positive1000, integer, diagonal, upper, spd,\n"
      "                       spd-gram, diagdom, hilbert, cond, poisson2d,\n"
      "                       poisson3d, singular\n"
      "  --rhs ones|random    x_true when b is generated (default ones)\n"
      "  --nrhs K             number of generated right-hand sides (default "
      "1)\n"
      "  --seed S             seed of a random x_true (default 42)\n"
      "\n"
      "Solver:\n"
      "  -m, --method M       auto (default: Cholesky when symmetric with a\n"
      "                       positive diagonal, LU if it is not SPD, else "
      "LU),\n"
      "                       lu, cholesky, gauss-jordan, lu-crout, gauss,\n"
      "                       cholesky-crout, cholesky-banachiewicz\n"
      "  --no-pivot           no pivoting (only with --method gauss or "
      "lu-crout)\n"
      "  --backend B          auto (default), cpu, cuda, ref\n"
      "  -d, --device N       CUDA device ordinal (default 0)\n"
      "  -p, --precision P    double (default) or single (also f64, f32, "
      "float)\n"
      "  -t, --threads N      CPU threads (default 0 = all cores)\n"
      "\n"
      "Output:\n"
      "  -o, --output FILE    write X as a Matrix Market array\n"
      "  --json               print the report as one JSON object\n"
      "  -q, --quiet          print no report (errors still go to stderr)\n"
      "  -h, --help           this text\n",
      f);
  exit_codes(f);
}

void cli_help_demo(FILE *f) {
  fputs("Usage: axb demo [OPTIONS]\n"
        "\n"
        "Solve three generated systems with b = A*1 (x_true = ones) and\n"
        "method auto: an SPD one (spd:N, Cholesky), an unsymmetric one\n"
        "(uniform:N, LU) and an ill-conditioned one (cond:N,kappa=1e10, LU;\n"
        "kappa=1e4 in single precision), and print their reports.  Needs\n"
        "no files and no GPU; exits 0 when every answer is certified\n"
        "(backward error < 30).\n"

        "\n"
        "Options:\n"
        "  -n, --n N            order of the systems (default 1000)\n"
        "  --backend B          auto (default), cpu, cuda, ref\n"
        "  -d, --device N       CUDA device ordinal (default 0)\n"
        "  -p, --precision P    double (default) or single\n"
        "  -t, --threads N      CPU threads (default 0 = all cores)\n"
        "  --json               print {\"demo\": [report, ...], \"certified\": "
        "...}\n"
        "  -q, --quiet          print nothing; the exit code tells\n"
        "  -h, --help           this text\n",
        f);
  exit_codes(f);
}

void cli_help_gen(FILE *f) {
  fputs("Usage: axb gen SPEC -o FILE [OPTIONS]\n"
        "\n"
        "Write the generated matrix SPEC (KIND:N[,key=value...], see\n"
        "'axb solve --help') as Matrix Market: Poisson kinds and --sparse\n"
        "as coordinate, other kinds as a dense array.\n"
        "\n"
        "Options:\n"
        "  -o, --output FILE    the file to write (required)\n"
        "  -p, --precision P    double (default) or single\n"
        "  --sparse             write coordinate format\n"
        "  -q, --quiet          no summary line\n"
        "  -h, --help           this text\n",
        f);
  exit_codes(f);
}

void cli_help_info(FILE *f) {
  fputs("Usage: axb info [--json]\n"
        "\n"
        "Print the version, the backends compiled in, the CUDA devices found\n"
        "(name and memory), the BLAS in use and the default CPU thread "
        "count.\n"
        "\n"
        "Options:\n"
        "  --json               one JSON object\n"
        "  -h, --help           this text\n",
        f);
  exit_codes(f);
}

void cli_help_bench(FILE *f) {
  fputs(
      "Usage: axb bench [OPTIONS] [FILE.mtx|DIR ...]\n"
      "\n"
      "Time routines x backends x precisions x sizes x matrices x threads.\n"
      "Per problem the input is generated once; each implementation gets\n"
      "its warm-up runs, then all timed runs run in one seeded random order,\n"
      "each on a fresh copy of the input (the copy is not timed).  Reported:\n"
      "median, mean, standard error and min of the wall time (GPU runs:\n"
      "transfers included; their device time by CUDA events beside it),\n"
      "GFLOP/s\n"
      "(standard counts, from the median), speedup over --baseline, parallel\n"
      "efficiency (speedup over 1 thread / threads) and the largest scaled\n"
      "residual ||b-Ax||/(||A|| ||x|| n eps) of the runs: a run at or above\n"
      "30 (or failing) is FLAGGED and its implementation is not ranked.\n"
      "\n"
      "Options (lists are comma separated):\n"
      "  -r, --routines L     lu, cholesky, inverse, gesv (getrf+getrs),\n"
      "                       solve (the axb_solve driver), lu-crout, gauss,\n"
      "                       cholesky-crout, cholesky-banachiewicz,\n"
      "                       gauss-jordan, gauss-jordan-unblocked, all;\n"
      "                       batched-gesv, batched-inverse (by name only,\n"
      "                       n <= 128) (default lu)\n"
      "  -b, --backends L     ref, cpu (omp), cuda, and the vendor anchors\n"
      "                       openblas, eigen (host), cusolver, cublas\n"
      "                       (batched only) (GPU), all (default\n"
      "                       cpu,openblas; absent ones skipped)\n"
      "  -p, --precision L    double, single (default double)\n"
      "  -n, --sizes L        N, A:B (doubling A..B), A:B:S (step S)\n"
      "                       (default 256,512,1024)\n"
      "  -m, --matrix L       generator kinds (uniform, integer, diagonal,\n"
      "                       upper, spd, ...) or auto (default: spd for\n"
      "                       Cholesky routines, uniform otherwise)\n"
      "  --files L            Matrix Market files or directories of *.mtx\n"
      "                       (also as arguments); --max-n N skips larger\n"
      "                       ones (default 6000)\n"
      "  -t, --threads L      thread counts for cpu, openblas, eigen; 0 or all "
      "=\n"
      "                       every core (default all)\n"
      "  --reps N             timed runs per implementation (default 5)\n"
      "  --warmup N           untimed runs first (default 1)\n"
      "  --seed S             matrices and run order (default 42)\n"
      "  --rhs ones|random    b = A x_true (ones: b = row sums; default)\n"
      "  --batch N            problems per batched run (default 1000)\n"
      "  --baseline B         a backend or none (default\n"
      "                       openblas when measured, else the first)\n"
      "  --study-max N        largest n for the unblocked study variants\n"
      "                       (default 2048)\n"
      "  --pause MS           idle time before each timed run\n"
      "                       so other thread pools stop spinning (default "
      "50)\n"
      "  -o, --out DIR        write results.json, results.csv, runs.csv and,\n"
      "                       when gnuplot is installed, plots (time and\n"
      "                       GFLOP/s vs n, speedup vs n; SVG and PNG)\n"
      "  --no-plots           no gnuplot even when installed\n"
      "  --preset P           lu-dense, lu-dense-900, cholesky, inverse,\n"
      "                       batched, real-lu (docs/BENCHMARKS.md); other\n"
      "                       options\n"
      "                       override the preset's\n"
      "  --quick              small sizes and 3 runs (presets too)\n"
      "  -d, --device N       CUDA device (default 0)\n"
      "  -h, --help           this text\n"
      "\n"
      "Progress goes to stderr when it is a terminal.  Ctrl-C stops after\n"
      "the current run, prints and writes what was measured, exits 130.\n",
      f);
  exit_codes(f);
}

void cli_help_tune(FILE *f) {
  fputs("Usage: axb tune [OPTIONS]\n"
        "\n"
        "Measure the order n at which the CUDA backend becomes faster than\n"
        "the CPU backend for LU, Cholesky and the inverse, and write the\n"
        "tuning file that --backend auto (AXB_BACKEND_AUTO) uses: CPU below\n"
        "the crossover, CUDA at or above it.  Without a GPU the file says\n"
        "so and holds the built-in defaults.  The file is\n"
        "$AXB_TUNE_FILE, else $XDG_CONFIG_HOME/axb/tune.txt, else\n"
        "~/.config/axb/tune.txt; 'axb info' shows the crossovers in use.\n"
        "\n"
        "Options:\n"
        "  -o, --output FILE    write here instead\n"
        "  --max-n N            largest n tried (default 8192)\n"
        "  --reps N             timed runs per point (default 3)\n"
        "  --dry-run            print the file, write nothing\n"
        "  -d, --device N       CUDA device (default 0)\n"
        "  -h, --help           this text\n",
        f);
  exit_codes(f);
}
