package org.agentmemory.platform.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigTablesTest {

    @Test
    void readsEntriesInOrderIgnoringBlanksAndEmptyEntries() {
        Map<String, String> table =
                ConfigTables.parse("memory.compaction.tool-policies", " run_sql = query ,, kubectl=shell, ");
        assertThat(table).containsExactly(Map.entry("run_sql", "query"), Map.entry("kubectl", "shell"));
        assertThat(List.copyOf(table.keySet())).containsExactly("run_sql", "kubectl");
    }

    @Test
    void blankOrAbsentTextIsAnEmptyTable() {
        assertThat(ConfigTables.parse("k", null)).isEmpty();
        assertThat(ConfigTables.parse("k", "  ")).isEmpty();
    }

    @Test
    void theLastEqualsSignSeparatesSoNamesMayContainOne() {
        assertThat(ConfigTables.parse("k", "a=b=c")).containsExactly(Map.entry("a=b", "c"));
    }

    @Test
    void malformedEntriesNameTheKeyAndTheEntry() {
        assertThatThrownBy(() -> ConfigTables.parse("memory.compaction.tool-policies", "run_sql"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("memory.compaction.tool-policies")
                .hasMessageContaining("'run_sql'")
                .hasMessageContaining("name=value");
        assertThatThrownBy(() -> ConfigTables.parse("k", "=query")).hasMessageContaining("'=query'");
        assertThatThrownBy(() -> ConfigTables.parse("k", "a=")).hasMessageContaining("'a='");
        assertThatThrownBy(() -> ConfigTables.parse("k", "a=1,a=2")).hasMessageContaining("'a' twice");
    }

    @Test
    void windowsArePositiveIntegers() {
        assertThat(ConfigTables.parsePositiveInts("memory.compaction.model-windows", "my-llama=65536, tiny=1"))
                .containsExactly(Map.entry("my-llama", 65536), Map.entry("tiny", 1));
        assertThatThrownBy(() -> ConfigTables.parsePositiveInts("memory.compaction.model-windows", "x=0"))
                .hasMessageContaining("memory.compaction.model-windows gives 'x' the value '0'");
        assertThatThrownBy(() -> ConfigTables.parsePositiveInts("memory.compaction.model-windows", "x=big"))
                .hasMessageContaining("'big'")
                .hasMessageContaining("1 or more");
    }
}
