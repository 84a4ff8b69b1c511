Nováková, Eva           1612 2 3 5 4; 420 390 500 360; board 1 1 1 2; class A; newr 1618 1611 1625 1617; p12 1 2 1 2; rrank 1 1 3 1 3
Dvořák, Jan             1580 1 5 4 3; 380 455 377 401; board 1 2 2 1; class A; newr 1572 1580 1581 1586; p12 2 1 1 2; rrank 2 4 2 2 2
Wiśniewska, Zofia       1505 4 1 0 2; 350 402 50 399; board 2 1 0 1; class A; newr 1497 1508 1508 1506; p12 2 1 0 1; rrank 3 5 3 4 4
Żółkiewski, Łukasz      1490 3 0 2 1; 410 50 377 444; board 2 0 2 2; class B; newr 1498 1498 1499 1510; p12 1 0 2 1; rrank 4 2 1 1 1
Ďurčo, Ľubomír          0 0 2 1 0; 50 300 330 -50; board 0 2 1; class B; newr 0 0 0 0; off -50; p12 0 2 2 1; rrank 5 3 5 5
