/** REST resource of answer memory. */
package org.agentmemory.answer;
