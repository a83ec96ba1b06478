/* Example (fixed): the twin of activation_backward_bug.cu. The GELU backward kernel indexes
 * grad_out with its own row stride (cols), x and grad_in with the padded pitch ld_x, so every
 * read stays in bounds and the gradients match the CPU reference. */
#include <math.h>
#include "cuda_check.h"

#define GELU_K 0.7978845608f /* sqrt(2 / pi) */
#define GELU_C 0.044715f

__host__ __device__ static float gelu(float x)
{
    float t = tanhf(GELU_K * (x + GELU_C * x * x * x));
    return 0.5f * x * (1.0f + t);
}

__host__ __device__ static float gelu_grad(float x)
{
    float t = tanhf(GELU_K * (x + GELU_C * x * x * x));
    return 0.5f * (1.0f + t) + 0.5f * x * (1.0f - t * t) * GELU_K * (1.0f + 3.0f * GELU_C * x * x);
}

/* y[r][c] = gelu(x[r][c]); x has row pitch ld_x, y is dense. */
__global__ void gelu_forward(const float *x, float *y, int rows, int cols, int ld_x)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        y[r * cols + c] = gelu(x[r * ld_x + c]);
}

/* grad_in[r][c] = grad_out[r][c] * gelu'(x[r][c]); x and grad_in have pitch ld_x, grad_out is
 * dense. */
__global__ void gelu_backward(const float *x, const float *grad_out, float *grad_in, int rows,
                              int cols, int ld_x)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) {
        float g = grad_out[r * cols + c]; /* FIX: grad_out is dense, its row stride is cols */
        grad_in[r * ld_x + c] = g * gelu_grad(x[r * ld_x + c]);
    }
}

int main(void)
{
    const int rows = 32, cols = 100, ld_x = 104; /* x rows padded to a multiple of 8 floats */
    size_t x_bytes = (size_t)rows * ld_x * sizeof(float);
    size_t y_bytes = (size_t)rows * cols * sizeof(float);
    float *hx = (float *)calloc((size_t)rows * ld_x, sizeof(float));
    float *hgo = (float *)malloc(y_bytes);
    float *hgi = (float *)calloc((size_t)rows * ld_x, sizeof(float));
    if (!hx || !hgo || !hgi) {
        fprintf(stderr, "activation_backward_ok: out of host memory\n");
        return 1;
    }
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            hx[r * ld_x + c] = (float)((r * 37 + c * 11) % 61 - 30) / 10.0f;
            hgo[r * cols + c] = (float)((r * 13 + c * 7) % 17 - 8) / 8.0f;
        }
    float *dx, *dy, *dgi, *dgo;
    CHECK(cudaMalloc((void **)&dx, x_bytes));
    CHECK(cudaMalloc((void **)&dy, y_bytes));
    CHECK(cudaMalloc((void **)&dgi, x_bytes));
    CHECK(cudaMalloc((void **)&dgo, y_bytes)); /* allocated last */
    CHECK(cudaMemcpy(dx, hx, x_bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dgo, hgo, y_bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dgi, 0, x_bytes));
    dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);
    gelu_forward<<<grid, block>>>(dx, dy, rows, cols, ld_x);
    CHECK(cudaGetLastError());
    gelu_backward<<<grid, block>>>(dx, dgo, dgi, rows, cols, ld_x);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hgi, dgi, x_bytes, cudaMemcpyDeviceToHost));
    float max_err = 0.0f;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            float want = hgo[r * cols + c] * gelu_grad(hx[r * ld_x + c]);
            float err = fabsf(hgi[r * ld_x + c] - want);
            if (err > max_err)
                max_err = err;
        }
    printf("activation_backward_ok: GELU forward+backward on a %dx%d activation (x pitch %d): "
           "largest gradient error vs CPU %g\n", rows, cols, ld_x, (double)max_err);
    CHECK(cudaFree(dx));
    CHECK(cudaFree(dy));
    CHECK(cudaFree(dgi));
    CHECK(cudaFree(dgo));
    free(hx);
    free(hgo);
    free(hgi);
    return max_err < 1e-4 ? 0 : 1;
}
