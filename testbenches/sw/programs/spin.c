/* Never ends: for the --max-cycles timeout test. */
int main(void) {
  volatile unsigned long n = 0;
  for (;;)
    ++n;
}
