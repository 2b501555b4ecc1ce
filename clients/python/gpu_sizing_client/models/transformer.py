from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="Transformer")



@_attrs_define
class Transformer:
    """ 
        Attributes:
            heads (int):
            hidden (int):
            layers (int):
            seq_len (int):
            vocab (int):
            causal (bool | Unset): Causal (decoder) attention; false for an encoder such as BERT Default: True.
            dropout (bool | Unset): Trained with dropout (its masks are kept for the backward); false for models trained
                without, as Llama, Mixtral and MPT Default: True.
            experts (int | Unset):  Default: 1.
            ffn_hidden (int | Unset): MLP inner size; default 4 x hidden
            gated_mlp (bool | Unset): SwiGLU-style MLP (three matrices) Default: False.
            kv_heads (int | Unset): Key/value heads (GQA); default: heads
            name (str | Unset):  Default: 'custom transformer'.
            tied_embeddings (bool | Unset): Input and output embeddings shared Default: True.
            top_k (int | Unset):  Default: 1.
     """

    heads: int
    hidden: int
    layers: int
    seq_len: int
    vocab: int
    causal: bool | Unset = True
    dropout: bool | Unset = True
    experts: int | Unset = 1
    ffn_hidden: int | Unset = UNSET
    gated_mlp: bool | Unset = False
    kv_heads: int | Unset = UNSET
    name: str | Unset = 'custom transformer'
    tied_embeddings: bool | Unset = True
    top_k: int | Unset = 1





    def to_dict(self) -> dict[str, Any]:
        heads = self.heads

        hidden = self.hidden

        layers = self.layers

        seq_len = self.seq_len

        vocab = self.vocab

        causal = self.causal

        dropout = self.dropout

        experts = self.experts

        ffn_hidden = self.ffn_hidden

        gated_mlp = self.gated_mlp

        kv_heads = self.kv_heads

        name = self.name

        tied_embeddings = self.tied_embeddings

        top_k = self.top_k


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "heads": heads,
            "hidden": hidden,
            "layers": layers,
            "seq_len": seq_len,
            "vocab": vocab,
        })
        if causal is not UNSET:
            field_dict["causal"] = causal
        if dropout is not UNSET:
            field_dict["dropout"] = dropout
        if experts is not UNSET:
            field_dict["experts"] = experts
        if ffn_hidden is not UNSET:
            field_dict["ffn_hidden"] = ffn_hidden
        if gated_mlp is not UNSET:
            field_dict["gated_mlp"] = gated_mlp
        if kv_heads is not UNSET:
            field_dict["kv_heads"] = kv_heads
        if name is not UNSET:
            field_dict["name"] = name
        if tied_embeddings is not UNSET:
            field_dict["tied_embeddings"] = tied_embeddings
        if top_k is not UNSET:
            field_dict["top_k"] = top_k

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        heads = d.pop("heads")

        hidden = d.pop("hidden")

        layers = d.pop("layers")

        seq_len = d.pop("seq_len")

        vocab = d.pop("vocab")

        causal = d.pop("causal", UNSET)

        dropout = d.pop("dropout", UNSET)

        experts = d.pop("experts", UNSET)

        ffn_hidden = d.pop("ffn_hidden", UNSET)

        gated_mlp = d.pop("gated_mlp", UNSET)

        kv_heads = d.pop("kv_heads", UNSET)

        name = d.pop("name", UNSET)

        tied_embeddings = d.pop("tied_embeddings", UNSET)

        top_k = d.pop("top_k", UNSET)

        transformer = cls(
            heads=heads,
            hidden=hidden,
            layers=layers,
            seq_len=seq_len,
            vocab=vocab,
            causal=causal,
            dropout=dropout,
            experts=experts,
            ffn_hidden=ffn_hidden,
            gated_mlp=gated_mlp,
            kv_heads=kv_heads,
            name=name,
            tied_embeddings=tied_embeddings,
            top_k=top_k,
        )

        return transformer

