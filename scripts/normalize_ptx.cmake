# Makes nvcc's PTX independent of where the tree lives: `.file 1 "/abs/path/kernels/x.cu"` becomes
# `.file 1 "x.cu"` (the same for the toolkit's headers). Usage: cmake -DPTX=file.ptx -P normalize_ptx.cmake
file(READ "${PTX}" text)
string(REGEX REPLACE "(\\.file[ \t]+[0-9]+[ \t]+\")[^\"\n]*/([^\"/\n]+\")" "\\1\\2" text "${text}")
file(WRITE "${PTX}" "${text}")
