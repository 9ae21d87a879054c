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
 * MiniLM in int8, conversation messages bge-small in int8, chosen on LoCoMo
 * (docs/decisions/0005-embedding-models.md).
 */
package org.agentmemory.platform.embedding;
