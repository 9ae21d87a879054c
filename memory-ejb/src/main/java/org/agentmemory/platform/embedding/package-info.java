/**
 * Text embeddings for episodic and conversation recall (spec §10.5): the
 * {@link org.agentmemory.platform.embedding.EmbeddingModel} strategy, the in-process models of
 * {@link org.agentmemory.platform.embedding.InProcessEmbeddingModel} (all-MiniLM-L6-v2 int8, the default of episodic
 * memory, and float32; bge-small-en-v1.5 int8, the default of conversation messages) and the by-name resolver.
 *
 * <p>Decisions: in-process ONNX through langchain4j, model files inside the Maven jars, nothing downloaded
 * and DJL kept offline; one load per process per model and thread count, lazily; vectors are L2-normalised
 * floats; input is NFC-normalised so canonically equivalent texts embed identically; queries carry the
 * instruction a model was trained with ({@link org.agentmemory.platform.embedding.EmbeddingModel#embedQuery});
 * texts beyond a model's window (256 word pieces for MiniLM, 512 for bge) are chunked by sentences and words
 * with overlap and the chunk vectors averaged by word-piece weight, instead of being silently truncated as
 * sentence-transformers does; embedding runs on the caller's thread with a bounded number of ONNX Runtime
 * threads ({@code memory.embedding.threads}). Each memory has its own model: episodes use the reference's
 * MiniLM in int8 (same recall as float32 for half the CPU; 310 episodes/s ingested against 137 with bge);
 * conversation messages use bge-small, chosen on LoCoMo (vector R@10 0.607 against 0.493, hybrid 0.708 against
 * 0.687 for MiniLM).
 */
package org.agentmemory.platform.embedding;
