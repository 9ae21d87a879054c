package org.agentmemory.testsupport;

import java.util.ArrayList;
import java.util.List;
import org.agentmemory.platform.embedding.EmbeddingModel;

/**
 * A deterministic 384-dimension model for store tests: a text's vector is a unit vector whose position depends on
 * the text's hash and the model's name (two models give different vectors for one text), and texts containing
 * "poison" are refused with an {@link IllegalArgumentException}, as a real model refuses an unusable text.
 */
public final class FakeEmbeddingModel implements EmbeddingModel {

    private final String name;
    private int batchCalls;

    /** @param name the model's name, as stored with each vector */
    public FakeEmbeddingModel(String name) {
        this.name = name;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int dimension() {
        return 384;
    }

    @Override
    public float[] embed(String text) {
        if (text.contains("poison")) {
            throw new IllegalArgumentException("refused");
        }
        float[] v = new float[384];
        v[Math.floorMod((name + '\u0000' + text).hashCode(), 384)] = 1f;
        return v;
    }

    @Override
    public List<float[]> embedAll(List<String> texts) {
        batchCalls++;
        List<float[]> out = new ArrayList<>();
        for (String t : texts) {
            out.add(embed(t));
        }
        return out;
    }

    /** @return how many times {@link #embedAll} was called */
    public int batchCalls() {
        return batchCalls;
    }
}
