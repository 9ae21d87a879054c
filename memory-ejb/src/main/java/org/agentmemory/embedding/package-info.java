/**
 * Text embeddings for episodic and conversation recall (spec §10.5): the
 * {@link org.agentmemory.embedding.EmbeddingModel} strategy, the in-process models of
 * {@link org.agentmemory.embedding.InProcessEmbeddingModel} (bge-small-en-v1.5 int8, the default, and
 * all-MiniLM-L6-v2 float32 and int8) and the by-name resolver.
 *
 * <p>Decisions: in-process ONNX through langchain4j, model files inside the Maven jars, nothing downloaded
 * and DJL kept offline; one load per process per model and thread count, lazily; vectors are L2-normalised
 * floats; input is NFC-normalised so canonically equivalent texts embed identically; queries carry the
 * instruction a model was trained with ({@link org.agentmemory.embedding.EmbeddingModel#embedQuery});
 * texts beyond a model's window (256 word pieces for MiniLM, 512 for bge) are chunked by sentences and words
 * with overlap and the chunk vectors averaged by word-piece weight, instead of being silently truncated as
 * sentence-transformers does; embedding runs on the caller's thread with a bounded number of ONNX Runtime
 * threads ({@code memory.embedding.threads}). The default model was chosen by measurement on LoCoMo
 * (vector R@10 0.606 against 0.494 for MiniLM) and by CPU per text (5.0 ms against 7.2 ms for float MiniLM).
 */
package org.agentmemory.embedding;
