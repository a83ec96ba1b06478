// The clean twin of sy_relaunch: the same rounds of correct launches of several block shapes
// and nothing else; the state each launch's blocks leave for the next must not look like a
// misuse.
#include "sy_relaunch_common.h"

int main()
{
    int *buf = nullptr;
    SY_CHECK(cudaMalloc(&buf, 4096 * sizeof(int)));
    SY_CHECK(cudaMemset(buf, 0, 4096 * sizeof(int)));
    rl_clean_rounds(buf, 3);
    SY_CHECK(cudaFree(buf));
    std::printf("done\n");
    return 0;
}
