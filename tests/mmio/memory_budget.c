/* Part of test_mmio (tests/test_mmio.c includes it; not compiled alone): the
   memory budget of the readers (AXB_MMIO_MAX_BYTES), measured on the peak
   resident set of this process. */

/* Peak resident set of this process, bytes. */
static double peak_rss(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_maxrss * 1024.0;
}

/* MemAvailable in bytes, or -1. */
static double mem_available(void) {
  FILE *f = fopen("/proc/meminfo", "r");
  if (!f) return -1;
  char line[256];
  long long kb = -1;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "MemAvailable: %lld kB", &kb) == 1) break;
  fclose(f);
  return kb < 0 ? -1 : (double)kb * 1024.0;
}

static void write_text(const char *path, const char *s, size_t n) {
  FILE *f = fopen(path, "wb");
  CHECK(f != NULL, "cannot write %s", path);
  if (!f) return;
  CHECK(fwrite(s, 1, n, f) == n, "write %s", path);
  fclose(f);
}

static void check_oom_budget(const char *what, axb_status st) {
  CHECK(st == AXB_ERR_OUT_OF_MEMORY, "%s: status %d (%s); detail: %s", what, st,
        axb_strerror(st), axb_detail(h));
  CHECK(strstr(axb_detail(h), "memory budget") != NULL,
        "%s: detail '%s' does not name the memory budget", what, axb_detail(h));
}

/* Run first: the peak-RSS checks measure from a small process. */
static void test_memory_budget(void) {
  axb_csr S;
  axb_dense D;
  char path[512];
  /* 1. The reviewer's 60-byte file: 10^8 empty rows read as CSR.  The row
     pointers are the result itself (0.8 GB, lazily zeroed); the read must
     not need them twice (it held 1.57 GB) nor anything else of that size.
     On a machine whose budget cannot hold them: OUT_OF_MEMORY. */
  static const char big_rows[] = MMC "real general\n100000000 1 0\n";
  path_in_tmp(path, sizeof path, "rows_1e8.mtx");
  write_text(path, big_rows, sizeof big_rows - 1);
  double rss0 = peak_rss();
  axb_status st = axb_read_csr(h, path, AXB_F64, &S);
  double grew = peak_rss() - rss0;
  if (st == AXB_SUCCESS) {
    CHECK(S.rows == 100000000 && S.cols == 1 && S.nnz == 0 &&
              S.rowptr[0] == 0 && S.rowptr[54321] == 0 && S.rowptr[S.rows] == 0,
          "1e8-row CSR");
    CHECK(grew < 1.2e9, "1e8-row CSR: peak RSS grew by %.3g GB (need 0.8)",
          grew / 1e9);
  } else {
    check_oom_budget("1e8-row CSR", st);
  }
  axb_csr_destroy(&S);
  /* 2. Sizes no memory holds fail before any allocation. */
  rss0 = peak_rss();
  const char *huge = MMC "real general\n2305843009213693952 1 0\n"; /* 2^61 */
  check_oom_budget("2^61 rows CSR", rd_csr(huge, AXB_F64, &S));
  CHECK(strstr(axb_detail(h), "inline:2:") == axb_detail(h), "detail: %s",
        axb_detail(h));
  check_oom_budget("2^61 rows dense", rd_dense(huge, AXB_F32, &D));
  const char *huge_arr = MMA "real general\n2305843009213693952 1\n1\n";
  check_oom_budget("2^61 rows array CSR", rd_csr(huge_arr, AXB_F64, &S));
  check_oom_budget(
      "INT64_MAX rows CSR",
      rd_csr(MMC "real general\n9223372036854775807 1 0\n", AXB_F64, &S));
  /* Row pointers of twice the available memory (the old per-allocation
     cap let two such arrays through and got the process killed). */
  double avail = mem_available();
  if (avail > 0) {
    char text[160];
    snprintf(text, sizeof text, "%s%.0f 1 0\n", MMC "real general\n",
             avail / 4);
    check_oom_budget("rows = 2 x MemAvailable / 8", rd_csr(text, AXB_F64, &S));
    check_oom_budget("rows = 2 x MemAvailable / 8 (dense)",
                     rd_dense(text, AXB_F64, &D));
  }
  CHECK(peak_rss() - rss0 < 64e6, "refused reads grew the peak RSS by %.3g MB",
        (peak_rss() - rss0) / 1e6);

  /* The environment lowers the budget: 256 MiB.  Reads expected to fit in
     it are judged only where memory is not scarce anyway. */
  int roomy = avail < 0 || avail > 1e9;
  setenv("AXB_MMIO_MAX_BYTES", "268435456", 1);
  /* 3. Cumulative: 2e7 x 1 dense (160 MB) plus its 2e7 row offsets
     (160 MB) each fit in 256 MiB, together they do not. */
  const char *two = MMC "real general\n20000000 1 1\n1 1 1\n";
  check_oom_budget("dense + row offsets", rd_dense(two, AXB_F64, &D));
  CHECK(strstr(axb_detail(h), "dense 20000000 x 1 double needs") != NULL,
        "detail: %s", axb_detail(h));
  st = rd_csr(two, AXB_F64, &S); /* 160 MB: fits */
  if (roomy) CHECK_STATUS(h, st, AXB_SUCCESS);
  axb_csr_destroy(&S);
  /* An array file read as CSR: values + double scratch + row pointers. */
  const char *arr = MMA "real general\n12000000 1\n";
  check_oom_budget("array as CSR", rd_csr(arr, AXB_F64, &S));

  /* 4. Cumulative while parsing: 200000 entries in 8 MiB.  The header's
     row pointers (1.6 MB) fit; entries (6.4 MB), row buckets (4.8 MB) and
     the result (4.8 MB) do not all fit, so the read fails part way. */
  int64_t n = 200000;
  size_t cap = (size_t)n * 24 + 128, len = 0;
  char *text = malloc(cap);
  CHECK(text != NULL, "malloc");
  if (text) {
    len += (size_t)snprintf(text, cap, "%s%lld 1 %lld\n", MMC "real general\n",
                            (long long)n, (long long)n);
    for (int64_t i = n; i >= 1; --i)
      len += (size_t)snprintf(text + len, cap - len, "%lld 1 %lld\n",
                              (long long)i, (long long)i);
    setenv("AXB_MMIO_MAX_BYTES", "8388608", 1);
    check_oom_budget("200000 entries in 8 MiB",
                     axb_read_csr_mem(h, "inline", text, len, AXB_F64, &S));
    setenv("AXB_MMIO_MAX_BYTES", "67108864", 1);
    st = axb_read_csr_mem(h, "inline", text, len, AXB_F64, &S);
    if (roomy) CHECK_STATUS(h, st, AXB_SUCCESS);
    if (st == AXB_SUCCESS)
      CHECK(S.nnz == n && S.rowptr[n] == n && S.colind[n - 1] == 0 &&
                ((double *)S.values)[n - 1] == (double)n,
            "200000 entries");
    axb_csr_destroy(&S);
    /* 5. A file larger than the budget is refused unread; a gzip stream
       is refused once its decompressed size passes it. */
    setenv("AXB_MMIO_MAX_BYTES", "1048576", 1);
    path_in_tmp(path, sizeof path, "entries.mtx");
    write_text(path, text, len); /* ~2.6 MB */
    CHECK_STATUS(h, axb_read_csr(h, path, AXB_F64, &S), AXB_ERR_OUT_OF_MEMORY);
    CHECK(strstr(axb_detail(h), "input larger than the memory budget of "
                                "0.000977 GiB") != NULL,
          "detail: %s", axb_detail(h));
    path_in_tmp(path, sizeof path, "entries.mtx.gz");
    gz_write_file(path, text, len);
    CHECK_STATUS(h, axb_read_dense(h, path, AXB_F64, &D),
                 AXB_ERR_OUT_OF_MEMORY);
    CHECK(strstr(axb_detail(h), "input larger than the memory budget") != NULL,
          "detail: %s", axb_detail(h));
    free(text);
  }
  /* 6. /dev/zero never ends: refused after its first 64 KiB as binary
     data (issue 19: it was read up to the budget). */
  setenv("AXB_MMIO_MAX_BYTES", "16777216", 1);
  if (access("/dev/zero", R_OK) == 0) {
    CHECK_STATUS(h, axb_read_csr(h, "/dev/zero", AXB_F64, &S), AXB_ERR_PARSE);
    CHECK(strstr(axb_detail(h), "/dev/zero: binary data") != NULL, "detail: %s",
          axb_detail(h));
  }
  unsetenv("AXB_MMIO_MAX_BYTES");
  /* 7. Text that goes on far past what its header announces (an endless
     stream of comments) is refused at a bound set by the header. */
  {
    size_t big = (size_t)20 << 20;
    char *text = malloc(big);
    if (text) {
      const char *head = "%%MatrixMarket matrix coordinate real general\n"
                         "3 3 1\n1 1 1.0\n";
      size_t hl = strlen(head);
      memcpy(text, head, hl);
      for (size_t i = hl; i < big; i += 10)
        memcpy(text + i, i + 10 <= big ? "% comment\n" : "\n\n\n\n\n\n\n\n\n\n",
               i + 10 <= big ? 10 : big - i);
      path_in_tmp(path, sizeof path, "endless.mtx");
      write_text(path, text, big);
      CHECK_STATUS(h, axb_read_csr(h, path, AXB_F64, &S), AXB_ERR_PARSE);
      CHECK(strstr(axb_detail(h), "goes on past") != NULL, "detail: %s",
            axb_detail(h));
      remove(path);
      free(text);
    }
  }
  /* A budget the environment cannot raise, nor garble. */
  setenv("AXB_MMIO_MAX_BYTES", "not a number", 1);
  st = rd_csr(two, AXB_F64, &S);
  if (roomy) CHECK_STATUS(h, st, AXB_SUCCESS);
  axb_csr_destroy(&S);
  unsetenv("AXB_MMIO_MAX_BYTES");
}
