package org.agentmemory.api.context;

import java.io.Serializable;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The long-term memory configuration of one context assembly (spec §9.1 {@code MemoryConfig}). Every field is
 * optional; a {@code null} weight is "not set", which matters for the brain rebalancing rule.
 *
 * <p>Rules (a break is an {@code InvalidInputException} on field {@code config}): counts ≥ 0; each weight in
 * [0, 1]; without the brain, episodic + skill + conversation = 1.0 ± 0.01; with the brain, all four sum to
 * 1.0 ± 0.01. With the brain enabled and NO weight set, the weights become 0.25 / 0.25 / 0.30 / 0.20
 * (episodic / skill / conversation / brain); otherwise unset weights take 0.3 / 0.3 / 0.4 / 0.20.
 *
 * @param enableBrain         whether brain knowledge joins the budget and the weight sum; {@code null} = false
 * @param maxContextTokens    the assembled context's budget, estimated tokens ({@code len / 4} code points),
 *                            ≥ 0; {@code null} = 2000. 90 % of it is filled (spec §9.2 headroom)
 * @param episodicMaxWarnings episodic warnings asked of the providers, ≥ 0; {@code null} = 3
 * @param skillMaxContext     skills asked of the providers, ≥ 0; {@code null} = 3
 * @param episodicWeight      share of the budget for episodic warnings, [0, 1]; {@code null} = not set
 * @param skillWeight         share for skills, [0, 1]; {@code null} = not set
 * @param conversationWeight  share for the conversation, [0, 1]; validated, never used to allocate (the
 *                            conversation gets what the others leave, spec §9.2); {@code null} = not set
 * @param brainWeight         share for brain knowledge, [0, 1]; {@code null} = not set
 */
@Schema(
        description =
                "The long-term memory configuration of one context assembly; every field is optional. Without"
                        + " the brain, episodic + skill + conversation weights must sum to 1.0 ± 0.01; with it, all four (400"
                        + " naming config otherwise). With the brain enabled and no weight set, the weights are 0.25 / 0.25 / 0.30"
                        + " / 0.20 (episodic / skill / conversation / brain); otherwise unset weights take 0.3 / 0.3 / 0.4 / 0.20.")
public record ContextAssemblyConfig(
        @Schema(description = "Whether brain knowledge joins the budget and the weight sum; absent or null = false.")
        Boolean enableBrain,

        @Schema(
                description = "The assembled context's budget in estimated tokens (code points / 4), 0 or more;"
                        + " absent or null = 2000. 90 % of it is filled.")
        Integer maxContextTokens,

        @Schema(description = "Episodic warnings asked of the providers, 0 or more; absent or null = 3.")
        Integer episodicMaxWarnings,

        @Schema(description = "Skills asked of the providers, 0 or more; absent or null = 3.")
        Integer skillMaxContext,

        @Schema(description = "Share of the budget for episodic warnings, 0 to 1; absent or null = not set.")
        Double episodicWeight,

        @Schema(description = "Share of the budget for skills, 0 to 1; absent or null = not set.")
        Double skillWeight,

        @Schema(
                description = "Share for the conversation, 0 to 1; checked in the sum but never used to allocate"
                        + " (the conversation gets what the other sections leave); absent or null = not set.")
        Double conversationWeight,

        @Schema(description = "Share for brain knowledge, 0 to 1; absent or null = not set.")
        Double brainWeight)
        implements Serializable {

    /** @return every default of spec §9.1 (brain off, 2000 tokens, weights 0.3 / 0.3 / 0.4) */
    public static ContextAssemblyConfig defaults() {
        return new ContextAssemblyConfig(null, null, null, null, null, null, null, null);
    }
}
