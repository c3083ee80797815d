# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
defmodule NxRuntime.TensorTest do
  # Element encodings, checked against the bytes each type must have.
  use ExUnit.Case, async: true
  alias NxRuntime.Tensor

  defp bytes(values, type), do: Tensor.new(values, type).data
  defp round_trip(values, type), do: values |> Tensor.new(type) |> Tensor.to_list()

  test "bf16 keeps the top half of f32, rounded to nearest even" do
    assert bytes([1.0], {:bf, 16}) == <<0x3F80::unsigned-16-native>>
    assert bytes([-2.5], {:bf, 16}) == <<0xC020::unsigned-16-native>>
    # 1 + 2^-8 is halfway between two bf16 values: ties go to the even one.
    assert bytes([1.00390625], {:bf, 16}) == <<0x3F80::unsigned-16-native>>
    # 1 + 3 * 2^-8 is halfway too, and rounds up to the even neighbour.
    assert bytes([1.01171875], {:bf, 16}) == <<0x3F82::unsigned-16-native>>
    assert round_trip([0.5, -3.0, 256.0], {:bf, 16}) == [0.5, -3.0, 256.0]
  end

  test "infinities and NaN go both ways for every floating point type" do
    for type <- [{:f, 16}, {:bf, 16}, {:f, 32}, {:f, 64}] do
      assert round_trip([:infinity, :neg_infinity, :nan, 1.0], type) ==
               [:infinity, :neg_infinity, :nan, 1.0],
             "#{inspect(type)}"
    end

    assert bytes([:infinity], {:f, 32}) == <<0x7F800000::unsigned-32-native>>
    assert bytes([:neg_infinity], {:f, 64}) == <<0xFFF0000000000000::unsigned-64-native>>
    assert bytes([:nan], {:bf, 16}) == <<0x7FC0::unsigned-16-native>>
  end

  test "complex elements are {re, im} pairs of the half-width float" do
    assert bytes([{1.0, -2.0}], {:c, 64}) == <<1.0::float-32-native, -2.0::float-32-native>>
    assert round_trip([{1.5, 2.0}, 3], {:c, 128}) == [{1.5, 2.0}, {3.0, 0.0}]
    assert round_trip([{:infinity, :nan}], {:c, 64}) == [{:infinity, :nan}]
  end

  test "values a type cannot hold are refused" do
    assert_raise ArgumentError, ~r/cannot encode :nan as \{:s, 32\}/, fn ->
      Tensor.new([:nan], {:s, 32})
    end

    assert_raise ArgumentError, ~r/cannot encode "x" as \{:c, 64\}/, fn ->
      Tensor.new(["x"], {:c, 64})
    end
  end
end
