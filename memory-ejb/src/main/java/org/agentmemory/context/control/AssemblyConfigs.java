package org.agentmemory.context.control;

import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.context.ContextAssemblyConfig;

/**
 * Turns the API's {@link ContextAssemblyConfig} into a validated {@link MemoryConfig} (spec §9.1). Pure.
 */
public final class AssemblyConfigs {

    private AssemblyConfigs() {}

    /**
     * @param config the requested configuration, or {@code null} for the defaults
     * @return the configuration with the spec's defaults for absent values and the brain rebalancing rule
     * @throws InvalidInputException naming {@code config.<field>} for a negative count or a weight outside
     *                               [0, 1], or {@code config} (rule {@code weights-sum}) when the weights do not
     *                               add up to 1.0 ± 0.01
     */
    public static MemoryConfig toMemoryConfig(ContextAssemblyConfig config) throws InvalidInputException {
        ContextAssemblyConfig c = config != null ? config : ContextAssemblyConfig.defaults();
        MemoryConfig.Builder builder = MemoryConfig.builder();
        if (c.enableBrain() != null) {
            builder.enableBrain(c.enableBrain());
        }
        if (c.maxContextTokens() != null) {
            builder.maxContextTokens(count("maxContextTokens", c.maxContextTokens()));
        }
        if (c.episodicMaxWarnings() != null) {
            builder.episodicMaxWarnings(count("episodicMaxWarnings", c.episodicMaxWarnings()));
        }
        if (c.skillMaxContext() != null) {
            builder.skillMaxContext(count("skillMaxContext", c.skillMaxContext()));
        }
        builder.episodicWeight(weight("episodicWeight", c.episodicWeight()))
                .skillWeight(weight("skillWeight", c.skillWeight()))
                .conversationWeight(weight("conversationWeight", c.conversationWeight()))
                .brainWeight(weight("brainWeight", c.brainWeight()));
        try {
            return builder.build();
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException("config", "weights-sum", e.getMessage());
        }
    }

    private static int count(String field, int value) throws InvalidInputException {
        if (value < 0) {
            throw new InvalidInputException(
                    "config." + field, "min", "config." + field + " is " + value + "; it must be 0 or more.");
        }
        return value;
    }

    private static Double weight(String field, Double value) throws InvalidInputException {
        if (value != null && !(value >= 0.0 && value <= 1.0)) {
            throw new InvalidInputException(
                    "config." + field,
                    "range",
                    "config." + field + " is " + value + "; a weight is a share of the budget between 0.0 and 1.0.");
        }
        return value;
    }
}
