#line 1 "statements.fx"
float Loops(int n)
{
    float acc = 0.0, scale[2] = { 1.0, 2.0 };
    int i = 0;
    [loop] while (i < n) { i++; if (i == 3) continue; acc += scale[i & 1]; }
    do { acc *= 0.5; } while (acc > 1.0);
    for (;;) { break; }
    for (i = 0, acc = 1; i < 4; ++i, --n) ;
    [forcecase] switch (n) { case 1: case 2: return acc; default: { return -acc; } }
}
