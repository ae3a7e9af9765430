/** The default sentence-embedding model, its folder under the models path. */
export const DEFAULT_MODEL = 'Xenova/all-MiniLM-L6-v2';

/** The ONNX weights transformers.js loads for a dtype: `q8` -> `onnx/model_quantized.onnx`, `fp32` -> `onnx/model.onnx`. */
export type ModelDtype = 'fp32' | 'q8' | 'fp16' | 'int8' | 'uint8' | 'q4';
export const ONNX_FILE_OF: Record<ModelDtype, string> = {
  q8: 'onnx/model_quantized.onnx',
  fp32: 'onnx/model.onnx',
  fp16: 'onnx/model_fp16.onnx',
  int8: 'onnx/model_int8.onnx',
  uint8: 'onnx/model_uint8.onnx',
  q4: 'onnx/model_q4.onnx',
};

