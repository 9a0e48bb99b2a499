package kb

import (
	"strings"
	"testing"
)

func TestValidateNameRefusesInvisibleCharacters(t *testing.T) {
	for _, name := range []string{
		"invoice\u202Egpj.exe", // right-to-left override
		"a\u2066b",             // left-to-right isolate
		"pass\u200Bword.txt",   // zero-width space
		"a\u200Db",             // zero-width joiner
		"\uFEFFreport.md",      // byte-order mark
		"a\u200Fb",             // right-to-left mark
		"tab\tname",            // control
	} {
		_, err := ValidateName(name)
		if err == nil || !strings.Contains(err.Error(), "may not contain") {
			t.Errorf("%q: %v", name, err)
		}
	}
	for _, name := range []string{"会议纪要.md", "résumé.pdf", "ملف.txt", "a-b_c.d"} {
		if _, err := ValidateName(name); err != nil {
			t.Errorf("%q refused: %v", name, err)
		}
	}
}

func TestValidUsername(t *testing.T) {
	for name, want := range map[string]bool{
		"a": true, "alice.b-c_d": true, strings.Repeat("a", 64): true,
		"": false, strings.Repeat("a", 65): false, "al ice": false, "al\u200Bice": false, "ålice": false, "-x": false, "a/b": false,
	} {
		if ValidUsername(name) != want {
			t.Errorf("%q: want %v", name, want)
		}
	}
}
