/**
 * Context assembly of the unified long-term layer (spec §9.1, §9.2): the long-term memory configuration
 * and the token-budgeted assembly of episodic warnings, skills, brain knowledge and recent conversation
 * into XML-tagged prompt sections.
 *
 * <p>Decisions: the assembler's estimate is the reference's {@code len(text) // 4} in code points (not the
 * memory's token counter), so budgets and truncation points match it exactly; the conversation section is
 * a prepared string (rendered from a compacted history, not raw turns); configuration weights are "set" or
 * "not set" (builder), which is what the brain rebalancing rule needs; validation failures are
 * {@link java.lang.IllegalArgumentException}s naming the field, the rule and the bad values.
 */
@Pure
package org.agentmemory.context.control;

import org.agentmemory.platform.Pure;
