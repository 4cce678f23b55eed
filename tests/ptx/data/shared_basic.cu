// Static shared array + __syncthreads (one kernel, the smallest realistic sample).
extern "C" __global__ void k(const float* g_in, float* g_out, int n) { __shared__ float s[256]; int t=threadIdx.x; s[t]=g_in[t]; __syncthreads(); g_out[t]=s[(t+1)%256]; }
